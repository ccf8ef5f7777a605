// Downloads and reads the world data VRCLink publishes for this world (shared/compat/world-sdk.md): the
// untrusted URL first, the GitHub Pages mirror (trusted URL) if that fails. The decoding and parsing live in
// Core/ (plain C# tested outside Unity); this behaviour only downloads, keeps the result and answers queries.
using UdonSharp;
using UnityEngine;
using VRC.SDK3.Data;
using VRC.SDK3.StringLoading;
using VRC.SDKBase;
using VRC.Udon.Common.Interfaces;

namespace VRCLink
{
    [UdonBehaviourSyncMode(BehaviourSyncMode.None)]
    public class VRCLinkWorldData : UdonSharpBehaviour
    {
        [Tooltip("The world's GUID on the VRCLink website (filled in by VRCLink > World Setup).")]
        public string worldGuid;
        [Tooltip("{PUBLIC_DATA_BASE}/v2/{worldGuid}: needs 'Allow Untrusted URLs' on the player's side.")]
        public VRCUrl untrustedUrl;
        [Tooltip("https://{owner}.github.io/{repo}/worlds/{worldGuid}: loads for everyone (GitHub Pages is trusted).")]
        public VRCUrl trustedUrl;
        public bool loadOnStart = true;
        [Tooltip("The role name guests are listed under in the world data.")]
        public string guestRoleName = "Guest";
        [Tooltip("Behaviours told of the result: they receive the events _OnVRCLinkDataLoaded / _OnVRCLinkDataFailed.")]
        public UdonSharpBehaviour[] eventReceivers;

        [HideInInspector] public bool isLoaded;
        [HideInInspector] public bool isFailed;
        [HideInInspector] public string lastError = "";
        /// <summary>CustomData as VRCJson read it (a string outside JSON Custom Data Mode).</summary>
        [HideInInspector] public DataToken customData;

        private object[] _document;
        private bool _triedTrusted;

        private void Start()
        {
            if (loadOnStart) LoadData();
        }

        /// <summary>Starts a download (VRChat allows one string load per 5 s per world; extra calls are queued).</summary>
        public void LoadData()
        {
            _triedTrusted = false;
            lastError = "";
            if (IsSet(untrustedUrl)) VRCStringDownloader.LoadUrl(untrustedUrl, (IUdonEventReceiver)this);
            else LoadTrusted();
        }

        private void LoadTrusted()
        {
            _triedTrusted = true;
            if (IsSet(trustedUrl)) VRCStringDownloader.LoadUrl(trustedUrl, (IUdonEventReceiver)this);
            else Fail(lastError != "" ? lastError : "No world data URL is set: run VRCLink > World Setup.");
        }

        public override void OnStringLoadSuccess(IVRCStringDownload result)
        {
            string json = VRCLinkLzw.DecodeBody(result.Result);
            object[] document = VRCLinkWorldDocument.Parse(json);
            if (document == null)
            {
                Retry("The world data could not be read.");
                return;
            }
            _document = document;
            ReadCustomData();
            isLoaded = true;
            isFailed = false;
            lastError = "";
            Notify("_OnVRCLinkDataLoaded");
        }

        public override void OnStringLoadError(IVRCStringDownload result)
        {
            Retry(result.Error);
        }

        private void Retry(string error)
        {
            lastError = error;
            if (!_triedTrusted) LoadTrusted();
            else Fail(error);
        }

        private void Fail(string error)
        {
            lastError = error;
            // A document loaded earlier stays usable; only the first load failing reports failure.
            if (isLoaded) return;
            isFailed = true;
            Debug.LogWarning("[VRCLink] " + error);
            Notify("_OnVRCLinkDataFailed");
        }

        private void ReadCustomData()
        {
            string text = (string)_document[VRCLinkWorldDocument.CustomDataText];
            string json = (string)_document[VRCLinkWorldDocument.CustomDataJson];
            DataToken parsed;
            if (text != null) customData = new DataToken(text);
            else if (json != null && VRCJson.TryDeserializeFromJson(json, out parsed)) customData = parsed;
            else customData = new DataToken();
        }

        /// <summary>Adds a behaviour to the receivers; one that registers after the load is told at once.</summary>
        public void Register(UdonSharpBehaviour receiver)
        {
            int count = eventReceivers == null ? 0 : eventReceivers.Length;
            UdonSharpBehaviour[] grown = new UdonSharpBehaviour[count + 1];
            for (int i = 0; i < count; i++) grown[i] = eventReceivers[i];
            grown[count] = receiver;
            eventReceivers = grown;
            if (isLoaded) receiver.SendCustomEvent("_OnVRCLinkDataLoaded");
            else if (isFailed) receiver.SendCustomEvent("_OnVRCLinkDataFailed");
        }

        private void Notify(string eventName)
        {
            if (eventReceivers == null) return;
            for (int i = 0; i < eventReceivers.Length; i++)
            {
                if (eventReceivers[i] != null) eventReceivers[i].SendCustomEvent(eventName);
            }
        }

        private static bool IsSet(VRCUrl url)
        {
            return url != null && url.Get() != null && url.Get().Length > 0;
        }

        // ---- Queries: worlds match people by VRChat display name ----

        public string LocalName()
        {
            VRCPlayerApi local = Networking.LocalPlayer;
            return local == null ? null : local.displayName;
        }

        /// <summary>Whether this display name is listed under the Discord role name (GuildUsers).</summary>
        public bool IsInRole(string displayName, string roleName)
        {
            return VRCLinkWorldDocument.IsInRole(_document, displayName, roleName, false);
        }

        /// <summary>Whether this display name is listed under the VRChat group role name (GroupUsers).</summary>
        public bool IsInGroupRole(string displayName, string roleName)
        {
            return VRCLinkWorldDocument.IsInRole(_document, displayName, roleName, true);
        }

        public bool IsLocalPlayerInRole(string roleName)
        {
            return IsInRole(LocalName(), roleName);
        }

        public bool IsLocalPlayerInGroupRole(string roleName)
        {
            return IsInGroupRole(LocalName(), roleName);
        }

        /// <summary>18+: listed in AgeVerifiedUsers (a linked member whose VRChat age verification is 18+).</summary>
        public bool IsAgeVerified(string displayName)
        {
            return VRCLinkWorldDocument.IsAgeVerified(_document, displayName);
        }

        public bool IsLocalPlayerAgeVerified()
        {
            return IsAgeVerified(LocalName());
        }

        /// <summary>A guest set up on the website: listed under the guest role name.</summary>
        public bool IsGuest(string displayName)
        {
            return IsInRole(displayName, guestRoleName);
        }

        public bool IsLocalPlayerGuest()
        {
            return IsGuest(LocalName());
        }

        /// <summary>The names listed under a Discord role name, in the website's order (empty if none).</summary>
        public string[] GetNamesInRole(string roleName)
        {
            string[] names = VRCLinkWorldDocument.NamesInRole(_document, roleName, false);
            return names == null ? new string[0] : names;
        }

        public string[] GetNamesInGroupRole(string roleName)
        {
            string[] names = VRCLinkWorldDocument.NamesInRole(_document, roleName, true);
            return names == null ? new string[0] : names;
        }

        /// <summary>The Discord role names in the world data, in the order the manager chose.</summary>
        public string[] GetRoleNames()
        {
            return Slot(VRCLinkWorldDocument.GuildRoleNames);
        }

        public string[] GetGroupRoleNames()
        {
            return Slot(VRCLinkWorldDocument.GroupRoleNames);
        }

        /// <summary>The role name of a Discord role id (GuildRoleMap), or null.</summary>
        public string GetRoleNameById(string roleId)
        {
            return VRCLinkWorldDocument.RoleNameOfId(_document, roleId, false);
        }

        public string GetGroupRoleNameById(string roleId)
        {
            return VRCLinkWorldDocument.RoleNameOfId(_document, roleId, true);
        }

        /// <summary>CustomData's JSON text as served (null if the document has none).</summary>
        public string GetCustomDataJson()
        {
            return _document == null ? null : (string)_document[VRCLinkWorldDocument.CustomDataJson];
        }

        public string GetLastUpdated()
        {
            return _document == null ? null : (string)_document[VRCLinkWorldDocument.LastUpdated];
        }

        public int GetMemberCount()
        {
            return _document == null ? 0 : (int)(double)_document[VRCLinkWorldDocument.MemberCount];
        }

        /// <summary>Whether the world data holds AtlasDetail (posters).</summary>
        public bool HasAtlas()
        {
            return _document != null && _document[VRCLinkWorldDocument.AtlasSlots] != null;
        }

        public int GetAtlasVariation()
        {
            return HasAtlas() ? (int)_document[VRCLinkWorldDocument.AtlasVariation] : 0;
        }

        /// <summary>A slot's {AtlasIndex, X, Y, Width, Height} (pixels, origin top-left), or null if absent.</summary>
        public int[] GetAtlasSlot(int slotId)
        {
            int at = VRCLinkWorldDocument.AtlasSlotIndex(_document, slotId);
            if (at < 0) return null;
            int[][] slots = (int[][])_document[VRCLinkWorldDocument.AtlasSlots];
            int[] slot = new int[5];
            slot[0] = slots[VRCLinkWorldDocument.AtlasIndex][at];
            slot[1] = slots[VRCLinkWorldDocument.X][at];
            slot[2] = slots[VRCLinkWorldDocument.Y][at];
            slot[3] = slots[VRCLinkWorldDocument.Width][at];
            slot[4] = slots[VRCLinkWorldDocument.Height][at];
            return slot;
        }

        private string[] Slot(int slot)
        {
            if (_document == null || _document[slot] == null) return new string[0];
            return (string[])_document[slot];
        }
    }
}
