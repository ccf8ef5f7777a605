// Source stubs of the VRChat SDK (com.vrchat.worlds, which bundles UdonSharp) types the package's runtime scripts
// use: signatures only, written from VRChat's creator documentation, so that Mono can type-check the UdonSharp
// behaviours. Not shipped; nothing here runs.
using System;
using UnityEngine;

namespace VRC.Udon.Common.Interfaces
{
    public interface IUdonEventReceiver { void SendCustomEvent(string eventName); }
}

namespace VRC.SDKBase
{
    public class VRCUrl
    {
        public VRCUrl(string url) { }
        public string Get() { return null; }
    }
    public class VRCPlayerApi { public string displayName; public bool isLocal; }
    public static class Networking { public static VRCPlayerApi LocalPlayer; }
}

namespace VRC.SDK3.StringLoading
{
    public interface IVRCStringDownload
    {
        string Result { get; }
        byte[] ResultBytes { get; }
        string Error { get; }
        int ErrorCode { get; }
        VRC.SDKBase.VRCUrl Url { get; }
    }
    public static class VRCStringDownloader
    {
        public static void LoadUrl(VRC.SDKBase.VRCUrl url, VRC.Udon.Common.Interfaces.IUdonEventReceiver udonBehaviour = null) { }
    }
}

namespace VRC.SDK3.Image
{
    public class TextureInfo
    {
        public bool GenerateMipMaps;
        public int AnisoLevel;
        public bool MaterialProperty;
    }
    public interface IVRCImageDownload
    {
        Texture2D Result { get; }
        string ErrorMessage { get; }
        VRC.SDKBase.VRCUrl Url { get; }
        Material Material { get; }
    }
    public class VRCImageDownloader : IDisposable
    {
        public IVRCImageDownload DownloadImage(VRC.SDKBase.VRCUrl url, Material material, VRC.Udon.Common.Interfaces.IUdonEventReceiver udonBehaviour, TextureInfo textureInfo = null) { return null; }
        public void Dispose() { }
    }
}

namespace VRC.SDK3.Data
{
    public enum TokenType { Null, Boolean, String, Double, DataList, DataDictionary, Error }
    public struct DataToken
    {
        public DataToken(string value) { TokenType = TokenType.String; }
        public DataToken(double value) { TokenType = TokenType.Double; }
        public DataToken(bool value) { TokenType = TokenType.Boolean; }
        public TokenType TokenType { get; private set; }
        public string String { get { return null; } }
    }
    public static class VRCJson
    {
        public static bool TryDeserializeFromJson(string source, out DataToken result) { result = new DataToken(); return false; }
    }
}

namespace UdonSharp
{
    public enum BehaviourSyncMode { Any, None, NoVariableSync, Continuous, Manual }
    [AttributeUsage(AttributeTargets.Class)]
    public class UdonBehaviourSyncModeAttribute : Attribute { public UdonBehaviourSyncModeAttribute(BehaviourSyncMode mode) { } }
    public abstract class UdonSharpBehaviour : MonoBehaviour, VRC.Udon.Common.Interfaces.IUdonEventReceiver
    {
        public void SendCustomEvent(string eventName) { }
        public void SendCustomEventDelayedSeconds(string eventName, float delaySeconds) { }
        public virtual void OnStringLoadSuccess(VRC.SDK3.StringLoading.IVRCStringDownload result) { }
        public virtual void OnStringLoadError(VRC.SDK3.StringLoading.IVRCStringDownload result) { }
        public virtual void OnImageLoadSuccess(VRC.SDK3.Image.IVRCImageDownload result) { }
        public virtual void OnImageLoadError(VRC.SDK3.Image.IVRCImageDownload result) { }
    }
}
