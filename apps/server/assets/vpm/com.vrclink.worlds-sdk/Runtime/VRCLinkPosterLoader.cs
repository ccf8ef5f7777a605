// Posters from the website's world images: reads AtlasDetail from the world data, downloads each atlas image
// the slots need (the URL baked for the current Variation) with VRCImageDownloader and shows each slot's
// rectangle on its material. Atlas URLs cannot be built at runtime (VRCUrl), so World Setup bakes them in.
using UdonSharp;
using UnityEngine;
using VRC.SDK3.Image;
using VRC.SDKBase;
using VRC.Udon.Common.Interfaces;

namespace VRCLink
{
    [UdonBehaviourSyncMode(BehaviourSyncMode.None)]
    public class VRCLinkPosterLoader : UdonSharpBehaviour
    {
        public VRCLinkWorldData worldData;
        [Tooltip("{PUBLIC_DATA_BASE}/atlas/{worldGuid}/0/{atlasIndex}, indexed by atlas index.")]
        public VRCUrl[] atlasUrlsVariation0;
        [Tooltip("{PUBLIC_DATA_BASE}/atlas/{worldGuid}/1/{atlasIndex}, indexed by atlas index.")]
        public VRCUrl[] atlasUrlsVariation1;
        [Tooltip("The website's image slot ids, one per material below.")]
        public int[] slotIds;
        public Material[] slotMaterials;
        [Tooltip("Shown on a slot's material when its image is missing or failed.")]
        public Texture fallbackTexture;

        private VRCImageDownloader _downloader;
        private VRCUrl[] _requested;

        private void Start()
        {
            _downloader = new VRCImageDownloader();
            if (worldData != null) worldData.Register(this);
        }

        private void OnDestroy()
        {
            if (_downloader != null) _downloader.Dispose();
        }

        public void _OnVRCLinkDataLoaded()
        {
            if (!worldData.HasAtlas()) return;
            VRCUrl[] urls = worldData.GetAtlasVariation() == 1 ? atlasUrlsVariation1 : atlasUrlsVariation0;
            if (urls == null) return;
            _requested = new VRCUrl[urls.Length];
            TextureInfo info = new TextureInfo();
            info.GenerateMipMaps = true;
            for (int s = 0; s < Length(); s++)
            {
                int[] slot = worldData.GetAtlasSlot(slotIds[s]);
                if (slot == null)
                {
                    ShowFallback(s);
                    continue;
                }
                int atlas = slot[0];
                if (atlas < 0 || atlas >= urls.Length || urls[atlas] == null) continue;
                if (_requested[atlas] != null) continue;
                _requested[atlas] = urls[atlas];
                // VRChat downloads one image per 5 s per scene and queues the rest.
                _downloader.DownloadImage(urls[atlas], null, (IUdonEventReceiver)this, info);
            }
        }

        public void _OnVRCLinkDataFailed()
        {
            for (int s = 0; s < Length(); s++) ShowFallback(s);
        }

        public override void OnImageLoadSuccess(IVRCImageDownload result)
        {
            int atlas = AtlasOf(result.Url);
            if (atlas < 0) return;
            Texture2D texture = result.Result;
            for (int s = 0; s < Length(); s++)
            {
                int[] slot = worldData.GetAtlasSlot(slotIds[s]);
                if (slot == null || slot[0] != atlas || slotMaterials[s] == null) continue;
                float[] uv = VRCLinkWorldDocument.UvRect(slot[1], slot[2], slot[3], slot[4], texture.width, texture.height);
                slotMaterials[s].mainTexture = texture;
                slotMaterials[s].mainTextureScale = new Vector2(uv[0], uv[1]);
                slotMaterials[s].mainTextureOffset = new Vector2(uv[2], uv[3]);
            }
        }

        public override void OnImageLoadError(IVRCImageDownload result)
        {
            Debug.LogWarning("[VRCLink] A poster atlas could not be loaded: " + result.ErrorMessage);
            int atlas = AtlasOf(result.Url);
            for (int s = 0; s < Length(); s++)
            {
                int[] slot = worldData.GetAtlasSlot(slotIds[s]);
                if (slot != null && slot[0] == atlas) ShowFallback(s);
            }
        }

        private int AtlasOf(VRCUrl url)
        {
            if (_requested == null || url == null) return -1;
            for (int i = 0; i < _requested.Length; i++)
            {
                if (_requested[i] != null && _requested[i].Get() == url.Get()) return i;
            }
            return -1;
        }

        private void ShowFallback(int s)
        {
            if (slotMaterials[s] == null || fallbackTexture == null) return;
            slotMaterials[s].mainTexture = fallbackTexture;
            slotMaterials[s].mainTextureScale = new Vector2(1, 1);
            slotMaterials[s].mainTextureOffset = new Vector2(0, 0);
        }

        private int Length()
        {
            if (slotIds == null || slotMaterials == null) return 0;
            return slotIds.Length < slotMaterials.Length ? slotIds.Length : slotMaterials.Length;
        }
    }
}
