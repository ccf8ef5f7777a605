// A board listing the names per role, scrolling one line at a time through a window of visible lines (a
// TextMesh cannot be clipped, so the text itself scrolls). Rich text is off: names are shown as written.
using UdonSharp;
using UnityEngine;

namespace VRCLink
{
    [UdonBehaviourSyncMode(BehaviourSyncMode.None)]
    public class VRCLinkSupporterBoard : UdonSharpBehaviour
    {
        public VRCLinkWorldData worldData;
        [Tooltip("Role names to list, in this order; empty lists every role in the world data's order.")]
        public string[] roleNames;
        [Tooltip("List VRChat group roles (GroupUsers) instead of Discord roles (GuildUsers).")]
        public bool groupRoles;
        public TextMesh text;
        public string title = "Supporters";
        [Tooltip("Lines shown at once; longer lists scroll.")]
        public int visibleLines = 16;
        [Tooltip("Seconds before the list moves up one line.")]
        public float secondsPerLine = 1.5f;
        public string loadingText = "Loading…";
        public string failedText = "The supporter list could not be loaded.";

        private string[] _lines = new string[0];
        private int _first;
        private float _elapsed;

        private void Start()
        {
            if (text != null)
            {
                text.richText = false;
                text.text = loadingText;
            }
            if (worldData != null) worldData.Register(this);
        }

        public void _OnVRCLinkDataLoaded()
        {
            string[] roles = roleNames != null && roleNames.Length > 0
                ? roleNames
                : (groupRoles ? worldData.GetGroupRoleNames() : worldData.GetRoleNames());
            int count = 2;
            for (int r = 0; r < roles.Length; r++) count += Names(roles[r]).Length + 2;
            string[] lines = new string[count];
            int n = 0;
            lines[n] = title;
            n++;
            lines[n] = "";
            n++;
            for (int r = 0; r < roles.Length; r++)
            {
                string[] names = Names(roles[r]);
                if (names.Length == 0) continue;
                lines[n] = "— " + roles[r] + " —";
                n++;
                for (int i = 0; i < names.Length; i++)
                {
                    lines[n] = names[i];
                    n++;
                }
                lines[n] = "";
                n++;
            }
            _lines = new string[n];
            for (int i = 0; i < n; i++) _lines[i] = lines[i];
            _first = 0;
            _elapsed = 0;
            Render();
        }

        public void _OnVRCLinkDataFailed()
        {
            if (text != null) text.text = failedText;
        }

        private string[] Names(string role)
        {
            return groupRoles ? worldData.GetNamesInGroupRole(role) : worldData.GetNamesInRole(role);
        }

        private void Update()
        {
            if (_lines.Length <= visibleLines || secondsPerLine <= 0) return;
            _elapsed += Time.deltaTime;
            if (_elapsed < secondsPerLine) return;
            _elapsed = 0;
            _first = (_first + 1) % _lines.Length;
            Render();
        }

        private void Render()
        {
            if (text == null) return;
            int shown = _lines.Length < visibleLines ? _lines.Length : visibleLines;
            string output = "";
            for (int i = 0; i < shown; i++)
            {
                if (i > 0) output += "\n";
                output += _lines[(_first + i) % _lines.Length];
            }
            text.text = output;
        }
    }
}
