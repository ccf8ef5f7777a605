// VRCLink > World Setup: fills a world's GUID and addresses into every VRCLink component of the open scenes.
// VRCUrl cannot be built at runtime in Udon, so the world data URLs and each atlas address (per variation)
// are baked in here: {PUBLIC_DATA_BASE}/v2/{guid}, the GitHub Pages mirror, {PUBLIC_DATA_BASE}/atlas/{guid}/{v}/{i}.
using System.Text.RegularExpressions;
using UdonSharpEditor;
using UnityEditor;
using UnityEngine;
using VRC.SDKBase;

namespace VRCLink.Editor
{
    public class VRCLinkWorldSetup : EditorWindow
    {
        /// <summary>Atlas addresses baked per variation (the website serves atlases 0…24 by default).</summary>
        public const int DefaultAtlasCount = 25;

        private string _guid = "";
        private string _trustedUrl = "";
        private int _atlasCount = DefaultAtlasCount;
        private string _status = "";

        [MenuItem("VRCLink/World Setup")]
        public static void Open()
        {
            GetWindow<VRCLinkWorldSetup>("VRCLink World Setup").Show();
        }

        private void OnGUI()
        {
            EditorGUILayout.HelpBox(
                "Paste the world's GUID from the website's Worlds tab (or pick the world in VRCLink > Sign In).",
                MessageType.None);
            _guid = EditorGUILayout.TextField("World GUID", _guid).Trim();
            _trustedUrl = EditorGUILayout.TextField("Trusted URL (optional)", _trustedUrl).Trim();
            _atlasCount = EditorGUILayout.IntSlider("Atlases per variation", _atlasCount, 1, 256);
            using (new EditorGUI.DisabledScope(!IsGuid(_guid)))
            {
                if (GUILayout.Button("Fill into the open scene"))
                {
                    string untrusted = VRCLinkLoginWindow.Server + "/data/v2/" + _guid;
                    int changed = Apply(_guid, untrusted, _trustedUrl, _atlasCount);
                    _status = $"Filled into {changed} VRCLink component(s).";
                }
            }
            if (_guid != "" && !IsGuid(_guid)) EditorGUILayout.HelpBox("That is not a world GUID.", MessageType.Warning);
            if (_status != "") EditorGUILayout.HelpBox(_status, MessageType.Info);
        }

        public static bool IsGuid(string value)
        {
            return Regex.IsMatch(value, "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$");
        }

        /// <summary>Sets the addresses on every VRCLinkWorldData and VRCLinkPosterLoader; returns how many changed.</summary>
        public static int Apply(string guid, string untrustedUrl, string trustedUrl, int atlasCount)
        {
            // Atlases live next to the world data: {PUBLIC_DATA_BASE}/v2/{guid} → {PUBLIC_DATA_BASE}/atlas/….
            string dataBase = untrustedUrl.Substring(0, untrustedUrl.LastIndexOf("/v2/"));
            int changed = 0;
            foreach (VRCLinkWorldData data in Object.FindObjectsOfType<VRCLinkWorldData>(true))
            {
                Undo.RecordObject(data, "VRCLink World Setup");
                data.worldGuid = guid;
                data.untrustedUrl = new VRCUrl(untrustedUrl);
                data.trustedUrl = new VRCUrl(trustedUrl ?? "");
                Save(data);
                changed++;
            }
            VRCLinkWorldData first = Object.FindObjectOfType<VRCLinkWorldData>(true);
            foreach (VRCLinkPosterLoader loader in Object.FindObjectsOfType<VRCLinkPosterLoader>(true))
            {
                Undo.RecordObject(loader, "VRCLink World Setup");
                loader.atlasUrlsVariation0 = AtlasUrls(dataBase, guid, 0, atlasCount);
                loader.atlasUrlsVariation1 = AtlasUrls(dataBase, guid, 1, atlasCount);
                if (loader.worldData == null) loader.worldData = first;
                Save(loader);
                changed++;
            }
            // Prefabs dropped into the scene come without their World Data link: connect them to the scene's one.
            foreach (VRCLinkSupporterBoard board in Object.FindObjectsOfType<VRCLinkSupporterBoard>(true))
            {
                if (board.worldData != null || first == null) continue;
                Undo.RecordObject(board, "VRCLink World Setup");
                board.worldData = first;
                Save(board);
            }
            foreach (VRCLinkRoleToggle toggle in Object.FindObjectsOfType<VRCLinkRoleToggle>(true))
            {
                if (toggle.worldData != null || first == null) continue;
                Undo.RecordObject(toggle, "VRCLink World Setup");
                toggle.worldData = first;
                Save(toggle);
            }
            return changed;
        }

        private static VRCUrl[] AtlasUrls(string dataBase, string guid, int variation, int count)
        {
            var urls = new VRCUrl[count];
            for (int i = 0; i < count; i++) urls[i] = new VRCUrl($"{dataBase}/atlas/{guid}/{variation}/{i}");
            return urls;
        }

        private static void Save(UdonSharp.UdonSharpBehaviour behaviour)
        {
            // UdonSharp keeps the values on the backing UdonBehaviour: copy the proxy's fields over.
            UdonSharpEditorUtility.CopyProxyToUdon(behaviour);
            PrefabUtility.RecordPrefabInstancePropertyModifications(behaviour);
            EditorUtility.SetDirty(behaviour);
        }
    }
}
