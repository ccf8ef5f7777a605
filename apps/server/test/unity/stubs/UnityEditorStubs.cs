// Source stubs of the UnityEditor (and UdonSharp editor) API the package's editor scripts use: signatures only,
// written from Unity's scripting reference, so that Mono can type-check the editor scripts. Not shipped.
using System;

namespace UnityEditor
{
    public class EditorWindow : UnityEngine.ScriptableObject
    {
        public static T GetWindow<T>(string title) where T : EditorWindow { return null; }
        public void Show() { }
        public void Repaint() { }
    }
    [AttributeUsage(AttributeTargets.Method)] public class MenuItem : Attribute { public MenuItem(string itemName) { } }
    public static class EditorPrefs
    {
        public static string GetString(string key, string defaultValue) { return defaultValue; }
        public static void SetString(string key, string value) { }
        public static void DeleteKey(string key) { }
    }
    public static class EditorApplication
    {
        public delegate void CallbackFunction();
        public static CallbackFunction update;
        public static double timeSinceStartup { get { return 0; } }
    }
    public enum MessageType { None, Info, Warning, Error }
    public static class EditorStyles { public static UnityEngine.GUIStyle boldLabel; }
    public static class EditorGUILayout
    {
        public static void LabelField(string label, UnityEngine.GUIStyle style) { }
        public static void LabelField(string label, string label2) { }
        public static string TextField(string label, string text) { return text; }
        public static int Popup(string label, int selectedIndex, string[] displayedOptions) { return selectedIndex; }
        public static int IntSlider(string label, int value, int leftValue, int rightValue) { return value; }
        public static void HelpBox(string message, MessageType type) { }
    }
    public static class EditorGUI
    {
        public struct DisabledScope : IDisposable { public DisabledScope(bool disabled) { } public void Dispose() { } }
    }
    public static class Undo { public static void RecordObject(UnityEngine.Object objectToUndo, string name) { } }
    public static class PrefabUtility { public static void RecordPrefabInstancePropertyModifications(UnityEngine.Object targetObject) { } }
    public static class EditorUtility { public static void SetDirty(UnityEngine.Object target) { } }
}

namespace UdonSharpEditor
{
    public static class UdonSharpEditorUtility
    {
        public static void CopyProxyToUdon(UdonSharp.UdonSharpBehaviour behaviour) { }
    }
}
