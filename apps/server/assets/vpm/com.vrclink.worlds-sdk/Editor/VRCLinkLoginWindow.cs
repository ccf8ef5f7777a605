// VRCLink > Sign In: the website's editor sign-in (shared/compat/world-sdk.md, "Editor login"). Asks the server
// for a one-time token, opens /sdk-oauth?token=… in the browser where the signed-in user presses Allow, polls
// POST /api/sdk-login about once a second for up to 60 s, and keeps the access token in EditorPrefs. Then it
// lists the user's servers and their worlds, and World Setup fills the chosen world into the scene.
using System;
using System.Text;
using UnityEditor;
using UnityEngine;
using UnityEngine.Networking;

namespace VRCLink.Editor
{
    public class VRCLinkLoginWindow : EditorWindow
    {
        internal const string ServerPref = "VRCLink.ServerUrl";
        private const string TokenPref = "VRCLink.AccessToken";
        private const string UserPref = "VRCLink.Username";
        private const double PollSeconds = 1.0;
        private const double PollLimitSeconds = 60.0;

        // Filled in by JsonUtility from the server's answers.
#pragma warning disable 0649
        [Serializable] private class StartAnswer { public string token; }
        [Serializable] private class PollAnswer { public string status; public string token; public string username; }
        [Serializable] private class Guild { public string id; public string name; }
        [Serializable] private class GuildList { public Guild[] items; }
        [Serializable] internal class World { public string id; public string name; public string untrustedUrl; public string trustedUrl; }
        [Serializable] private class WorldList { public World[] worlds; }
#pragma warning restore 0649

        private string _status = "";
        private string _loginToken;
        private double _pollStarted;
        private double _nextPoll;
        private UnityWebRequest _pending;
        private Action<UnityWebRequest> _onDone;
        private Guild[] _guilds = new Guild[0];
        private int _guild;
        private World[] _worlds = new World[0];
        private int _world;

        [MenuItem("VRCLink/Sign In")]
        public static void Open()
        {
            GetWindow<VRCLinkLoginWindow>("VRCLink").Show();
        }

        internal static string Server => EditorPrefs.GetString(ServerPref, "https://vrclink.app").TrimEnd('/');

        private void OnEnable()
        {
            EditorApplication.update += Tick;
        }

        private void OnDisable()
        {
            EditorApplication.update -= Tick;
            _pending?.Dispose();
            _pending = null;
        }

        private void OnGUI()
        {
            EditorGUILayout.LabelField("VRCLink", EditorStyles.boldLabel);
            string server = EditorGUILayout.TextField("Website", Server);
            if (server != Server) EditorPrefs.SetString(ServerPref, server);

            string token = EditorPrefs.GetString(TokenPref, "");
            if (token == "")
            {
                using (new EditorGUI.DisabledScope(_loginToken != null))
                {
                    if (GUILayout.Button("Sign in with the website")) StartLogin();
                }
            }
            else
            {
                EditorGUILayout.LabelField("Signed in as", EditorPrefs.GetString(UserPref, ""));
                if (GUILayout.Button("Sign out"))
                {
                    EditorPrefs.DeleteKey(TokenPref);
                    EditorPrefs.DeleteKey(UserPref);
                    _guilds = new Guild[0];
                    _worlds = new World[0];
                }
                if (GUILayout.Button("Load my servers")) LoadGuilds();
                if (_guilds.Length > 0)
                {
                    int guild = EditorGUILayout.Popup("Server", _guild, Array.ConvertAll(_guilds, g => g.name));
                    if (guild != _guild || (_worlds.Length == 0 && GUILayout.Button("Load worlds")))
                    {
                        _guild = guild;
                        LoadWorlds();
                    }
                }
                if (_worlds.Length > 0)
                {
                    _world = EditorGUILayout.Popup("World", _world, Array.ConvertAll(_worlds, w => w.name));
                    if (GUILayout.Button("Use this world in the open scene"))
                    {
                        World w = _worlds[_world];
                        int changed = VRCLinkWorldSetup.Apply(w.id, w.untrustedUrl, w.trustedUrl, VRCLinkWorldSetup.DefaultAtlasCount);
                        _status = $"World '{w.name}' filled into {changed} VRCLink component(s).";
                    }
                }
            }
            if (_status != "") EditorGUILayout.HelpBox(_status, MessageType.Info);
        }

        private void StartLogin()
        {
            _status = "Asking the website for a sign-in link…";
            Send(UnityWebRequest.Get(Server + "/api/sdk-login"), req =>
            {
                _loginToken = JsonUtility.FromJson<StartAnswer>(req.downloadHandler.text).token;
                Application.OpenURL(Server + "/sdk-oauth?token=" + Uri.EscapeDataString(_loginToken));
                _pollStarted = EditorApplication.timeSinceStartup;
                _nextPoll = _pollStarted + PollSeconds;
                _status = "Press Allow on the page that opened in your browser.";
            });
        }

        private void Tick()
        {
            if (_pending != null)
            {
                if (!_pending.isDone) return;
                UnityWebRequest done = _pending;
                Action<UnityWebRequest> onDone = _onDone;
                _pending = null;
                if (done.result == UnityWebRequest.Result.Success) onDone(done);
                else
                {
                    _status = "The website could not be reached: " + done.error;
                    _loginToken = null;
                }
                done.Dispose();
                Repaint();
                return;
            }
            if (_loginToken == null || EditorApplication.timeSinceStartup < _nextPoll) return;
            if (EditorApplication.timeSinceStartup - _pollStarted > PollLimitSeconds)
            {
                _status = "Sign-in timed out after 60 seconds. Try again.";
                _loginToken = null;
                Repaint();
                return;
            }
            _nextPoll = EditorApplication.timeSinceStartup + PollSeconds;
            Poll();
        }

        private void Poll()
        {
            string body = "{\"token\":\"" + _loginToken.Replace("\\", "\\\\").Replace("\"", "\\\"") + "\"}";
            var req = new UnityWebRequest(Server + "/api/sdk-login", "POST")
            {
                uploadHandler = new UploadHandlerRaw(Encoding.UTF8.GetBytes(body)),
                downloadHandler = new DownloadHandlerBuffer(),
            };
            req.SetRequestHeader("Content-Type", "application/json");
            Send(req, done =>
            {
                PollAnswer answer = JsonUtility.FromJson<PollAnswer>(done.downloadHandler.text);
                switch (answer.status)
                {
                    case "Ok":
                        EditorPrefs.SetString(TokenPref, answer.token);
                        EditorPrefs.SetString(UserPref, answer.username ?? "");
                        _loginToken = null;
                        _status = "Signed in.";
                        LoadGuilds();
                        break;
                    case "TokenNotAuthorizedYet":
                        break;
                    case "Unauthorized":
                        _loginToken = null;
                        _status = "The sign-in was denied on the website.";
                        break;
                    case "TokenExpired":
                    case "TokenNotFound":
                        _loginToken = null;
                        _status = "The sign-in link expired. Try again.";
                        break;
                    default:
                        _loginToken = null;
                        _status = "The website could not complete the sign-in. Try again.";
                        break;
                }
            });
        }

        private void LoadGuilds()
        {
            Send(Authorized(Server + "/api/guilds"), req =>
            {
                _guilds = JsonUtility.FromJson<GuildList>("{\"items\":" + req.downloadHandler.text + "}").items ?? new Guild[0];
                _guild = 0;
                _worlds = new World[0];
                _status = _guilds.Length == 0 ? "You manage no server with VRCLink." : "";
            });
        }

        private void LoadWorlds()
        {
            if (_guild >= _guilds.Length) return;
            string url = Server + "/api/guilds/" + Uri.EscapeDataString(_guilds[_guild].id) + "/worlds";
            Send(Authorized(url), req =>
            {
                _worlds = JsonUtility.FromJson<WorldList>(req.downloadHandler.text).worlds ?? new World[0];
                _world = 0;
                _status = _worlds.Length == 0 ? "This server has no world yet: create one on the website." : "";
            });
        }

        private static UnityWebRequest Authorized(string url)
        {
            UnityWebRequest req = UnityWebRequest.Get(url);
            req.SetRequestHeader("Authorization", "Bearer " + EditorPrefs.GetString(TokenPref, ""));
            return req;
        }

        private void Send(UnityWebRequest req, Action<UnityWebRequest> onDone)
        {
            _pending?.Dispose();
            _pending = req;
            _onDone = onDone;
            req.SendWebRequest();
        }
    }
}
