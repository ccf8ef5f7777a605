// Source stubs of the Unity types the package's runtime scripts use: signatures only, written from Unity's
// scripting reference, so that Mono can type-check the UdonSharp behaviours. Not shipped; nothing here runs.
using System;

namespace UnityEngine
{
    public class Object
    {
        public string name;
        public static void Destroy(Object obj) { }
        public static T[] FindObjectsOfType<T>(bool includeInactive) where T : Object { return null; }
        public static T FindObjectOfType<T>(bool includeInactive) where T : Object { return null; }
    }
    public class Component : Object
    {
        public GameObject gameObject;
        public Transform transform;
    }
    public class Behaviour : Component { public bool enabled; }
    public class MonoBehaviour : Behaviour { }
    public class GameObject : Object
    {
        public bool activeSelf;
        public void SetActive(bool value) { }
    }
    public class Transform : Component { public Vector3 localPosition; }
    public class Texture : Object { public int width; public int height; }
    public class Texture2D : Texture { }
    public class Material : Object
    {
        public Texture mainTexture;
        public Vector2 mainTextureScale;
        public Vector2 mainTextureOffset;
    }
    public class TextMesh : Component { public string text; public bool richText; }
    public struct Vector2 { public float x, y; public Vector2(float x, float y) { this.x = x; this.y = y; } }
    public struct Vector3 { public float x, y, z; public Vector3(float x, float y, float z) { this.x = x; this.y = y; this.z = z; } }
    public static class Time { public static float deltaTime; public static float time; }
    public static class Debug
    {
        public static void Log(object message) { }
        public static void LogWarning(object message) { }
        public static void LogError(object message) { }
    }
    public class ScriptableObject : Object { }
    public static class Application { public static void OpenURL(string url) { } }
    public static class JsonUtility { public static T FromJson<T>(string json) { return default(T); } }
    public class GUIStyle { }
    public static class GUILayout { public static bool Button(string text) { return false; } }
    [AttributeUsage(AttributeTargets.Field)] public class TooltipAttribute : Attribute { public TooltipAttribute(string tooltip) { } }
    [AttributeUsage(AttributeTargets.Field)] public class HideInInspector : Attribute { }
    [AttributeUsage(AttributeTargets.Field)] public class SerializeField : Attribute { }
    [AttributeUsage(AttributeTargets.Field)] public class HeaderAttribute : Attribute { public HeaderAttribute(string header) { } }
}

namespace UnityEngine.Networking
{
    public class UploadHandler : IDisposable { public void Dispose() { } }
    public class UploadHandlerRaw : UploadHandler { public UploadHandlerRaw(byte[] data) { } }
    public class DownloadHandler : IDisposable { public string text { get { return null; } } public void Dispose() { } }
    public class DownloadHandlerBuffer : DownloadHandler { }
    public class UnityWebRequestAsyncOperation { }
    public class UnityWebRequest : IDisposable
    {
        public enum Result { InProgress, Success, ConnectionError, ProtocolError, DataProcessingError }
        public UnityWebRequest(string url, string method) { }
        public static UnityWebRequest Get(string uri) { return null; }
        public UploadHandler uploadHandler { get; set; }
        public DownloadHandler downloadHandler { get; set; }
        public bool isDone { get { return false; } }
        public Result result { get { return Result.InProgress; } }
        public string error { get { return null; } }
        public void SetRequestHeader(string name, string value) { }
        public UnityWebRequestAsyncOperation SendWebRequest() { return null; }
        public void Dispose() { }
    }
}
