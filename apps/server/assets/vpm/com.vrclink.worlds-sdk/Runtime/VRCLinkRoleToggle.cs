// A door or object that only the right people see: for the local player, once the world data loaded, turns
// objects on (and others off) when they hold one of the roles. Nothing changes for anyone else.
using UdonSharp;
using UnityEngine;

namespace VRCLink
{
    [UdonBehaviourSyncMode(BehaviourSyncMode.None)]
    public class VRCLinkRoleToggle : UdonSharpBehaviour
    {
        public VRCLinkWorldData worldData;
        [Tooltip("Discord role names (as in the world data); holding any one of them is enough.")]
        public string[] roleNames;
        [Tooltip("VRChat group role names; holding any one of them is enough.")]
        public string[] groupRoleNames;
        [Tooltip("Let guests set up on the website in as well.")]
        public bool allowGuests;
        [Tooltip("Only 18+ (age-verified) players, on top of the roles (with no roles listed: any 18+ player).")]
        public bool requireAgeVerified;
        [Tooltip("Turned on for allowed players (e.g. an open door), off for everyone else.")]
        public GameObject[] enableWhenAllowed;
        [Tooltip("Turned off for allowed players (e.g. a closed door or a barrier), on for everyone else.")]
        public GameObject[] disableWhenAllowed;

        private void Start()
        {
            Apply(false);
            if (worldData != null) worldData.Register(this);
        }

        public void _OnVRCLinkDataLoaded()
        {
            Apply(IsLocalPlayerAllowed());
        }

        public void _OnVRCLinkDataFailed()
        {
            Apply(false);
        }

        public bool IsLocalPlayerAllowed()
        {
            if (worldData == null) return false;
            string name = worldData.LocalName();
            if (name == null) return false;
            bool anyRoleListed = Count(roleNames) + Count(groupRoleNames) > 0 || allowGuests;
            bool inRole = !anyRoleListed;
            if (roleNames != null)
            {
                for (int i = 0; i < roleNames.Length; i++) inRole = inRole || worldData.IsInRole(name, roleNames[i]);
            }
            if (groupRoleNames != null)
            {
                for (int i = 0; i < groupRoleNames.Length; i++) inRole = inRole || worldData.IsInGroupRole(name, groupRoleNames[i]);
            }
            if (allowGuests) inRole = inRole || worldData.IsGuest(name);
            if (requireAgeVerified && !worldData.IsAgeVerified(name)) return false;
            return inRole;
        }

        private void Apply(bool allowed)
        {
            SetActive(enableWhenAllowed, allowed);
            SetActive(disableWhenAllowed, !allowed);
        }

        private static void SetActive(GameObject[] objects, bool active)
        {
            if (objects == null) return;
            for (int i = 0; i < objects.Length; i++)
            {
                if (objects[i] != null) objects[i].SetActive(active);
            }
        }

        private static int Count(string[] items)
        {
            return items == null ? 0 : items.Length;
        }
    }
}
