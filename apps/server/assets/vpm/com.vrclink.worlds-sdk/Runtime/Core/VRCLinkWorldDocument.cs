// Plain C# in the subset UdonSharp compiles (see VRCLinkLzw.cs and the README). Reads the world-data JSON
// (shared/compat/world-sdk.md, "JSON document") into arrays the behaviours query. UdonSharp has no user classes
// besides behaviours, no out/ref parameters and no exceptions, so: the document is an object[] with the slots
// below, the read position is an int[1] cell passed along, and a failure sets it to -1.
#if UNITY_5_3_OR_NEWER
using UdonSharp;
#endif

namespace VRCLink
{
#if UNITY_5_3_OR_NEWER
    public class VRCLinkWorldDocument : UdonSharpBehaviour
#else
    public class VRCLinkWorldDocument
#endif
    {
        // Slots of the parsed document. Absent keys leave their slot null.
        public const int Version = 0; // double
        public const int LastUpdated = 1; // string
        public const int MemberCount = 2; // double
        public const int GuildRoleNames = 3; // string[], in document order
        public const int GuildRoleUsers = 4; // string[][], parallel to GuildRoleNames
        public const int GuildRoleMapIds = 5; // string[]
        public const int GuildRoleMapNames = 6; // string[], parallel to GuildRoleMapIds
        public const int GroupRoleNames = 7;
        public const int GroupRoleUsers = 8;
        public const int GroupRoleMapIds = 9;
        public const int GroupRoleMapNames = 10;
        public const int AgeVerifiedUsers = 11; // string[]
        public const int AtlasSlots = 12; // int[][6]: SlotId, AtlasIndex, X, Y, Width, Height (one int[] each)
        public const int AtlasLastGeneration = 13; // string
        public const int AtlasVariation = 14; // int
        public const int CustomDataJson = 15; // string: the CustomData value's JSON text as served
        public const int CustomDataText = 16; // string: CustomData when it is a JSON string (not JSON mode)
        public const int SlotCount = 17;

        public const int SlotId = 0;
        public const int AtlasIndex = 1;
        public const int X = 2;
        public const int Y = 3;
        public const int Width = 4;
        public const int Height = 5;

        /// <summary>
        /// The parsed document, or null when the text is not a JSON object or lacks Version, LastUpdated or
        /// MemberCount (the SDK rejects such a document).
        /// </summary>
        public static object[] Parse(string json)
        {
            if (json == null) return null;
            object[] doc = new object[SlotCount];
            int[] pos = new int[1];
            SkipSpace(json, pos);
            if (!Expect(json, pos, '{')) return null;
            if (Peek(json, pos) == '}') pos[0]++;
            else
            {
                while (pos[0] >= 0)
                {
                    string key = ReadString(json, pos);
                    if (!Expect(json, pos, ':')) return null;
                    ReadMember(json, pos, key, doc);
                    if (pos[0] < 0) return null;
                    char c = Peek(json, pos);
                    pos[0]++;
                    if (c == '}') break;
                    if (c != ',') return null;
                }
            }
            if (pos[0] < 0) return null;
            SkipSpace(json, pos);
            if (pos[0] != json.Length) return null;
            if (doc[Version] == null || doc[LastUpdated] == null || doc[MemberCount] == null) return null;
            return doc;
        }

        private static void ReadMember(string json, int[] pos, string key, object[] doc)
        {
            if (key == "Version") StoreNumber(json, pos, doc, Version);
            else if (key == "MemberCount") StoreNumber(json, pos, doc, MemberCount);
            else if (key == "LastUpdated") doc[LastUpdated] = ReadString(json, pos);
            else if (key == "GuildUsers") ReadRoleUsers(json, pos, doc, GuildRoleNames, GuildRoleUsers);
            else if (key == "GroupUsers") ReadRoleUsers(json, pos, doc, GroupRoleNames, GroupRoleUsers);
            else if (key == "GuildRoleMap") ReadRoleMap(json, pos, doc, GuildRoleMapIds, GuildRoleMapNames);
            else if (key == "GroupRoleMap") ReadRoleMap(json, pos, doc, GroupRoleMapIds, GroupRoleMapNames);
            else if (key == "AgeVerifiedUsers") doc[AgeVerifiedUsers] = ReadStringArray(json, pos);
            else if (key == "AtlasDetail") ReadAtlas(json, pos, doc);
            else if (key == "CustomData")
            {
                SkipSpace(json, pos);
                int start = pos[0];
                if (Peek(json, pos) == '"')
                {
                    doc[CustomDataText] = ReadString(json, pos);
                }
                else
                {
                    doc[CustomDataText] = null;
                    SkipValue(json, pos);
                }
                if (pos[0] >= 0) doc[CustomDataJson] = json.Substring(start, pos[0] - start);
            }
            else SkipValue(json, pos);
        }

        private static void StoreNumber(string json, int[] pos, object[] doc, int slot)
        {
            double value = ReadNumber(json, pos);
            if (pos[0] >= 0) doc[slot] = value;
        }

        /// <summary>{ "role name": ["display name", …], … } into names and a parallel array of name lists.</summary>
        private static void ReadRoleUsers(string json, int[] pos, object[] doc, int namesSlot, int usersSlot)
        {
            string[] names = new string[8];
            string[][] users = new string[8][];
            int count = 0;
            if (!Expect(json, pos, '{')) return;
            if (Peek(json, pos) == '}') pos[0]++;
            else
            {
                while (pos[0] >= 0)
                {
                    string name = ReadString(json, pos);
                    if (!Expect(json, pos, ':')) return;
                    string[] list = ReadStringArray(json, pos);
                    if (pos[0] < 0) return;
                    if (count == names.Length)
                    {
                        names = GrowStrings(names, count * 2);
                        string[][] grown = new string[count * 2][];
                        for (int i = 0; i < count; i++) grown[i] = users[i];
                        users = grown;
                    }
                    names[count] = name;
                    users[count] = list;
                    count++;
                    if (!EndOfMember(json, pos, '}')) break;
                }
            }
            if (pos[0] < 0) return;
            string[] finalNames = GrowStrings(names, count);
            string[][] finalUsers = new string[count][];
            for (int i = 0; i < count; i++) finalUsers[i] = users[i];
            doc[namesSlot] = finalNames;
            doc[usersSlot] = finalUsers;
        }

        /// <summary>{ "role id": "role name", … } into two parallel arrays.</summary>
        private static void ReadRoleMap(string json, int[] pos, object[] doc, int idsSlot, int namesSlot)
        {
            string[] ids = new string[8];
            string[] names = new string[8];
            int count = 0;
            if (!Expect(json, pos, '{')) return;
            if (Peek(json, pos) == '}') pos[0]++;
            else
            {
                while (pos[0] >= 0)
                {
                    string id = ReadString(json, pos);
                    if (!Expect(json, pos, ':')) return;
                    string name = ReadString(json, pos);
                    if (pos[0] < 0) return;
                    if (count == ids.Length)
                    {
                        ids = GrowStrings(ids, count * 2);
                        names = GrowStrings(names, count * 2);
                    }
                    ids[count] = id;
                    names[count] = name;
                    count++;
                    if (!EndOfMember(json, pos, '}')) break;
                }
            }
            if (pos[0] < 0) return;
            doc[idsSlot] = GrowStrings(ids, count);
            doc[namesSlot] = GrowStrings(names, count);
        }

        private static void ReadAtlas(string json, int[] pos, object[] doc)
        {
            int[][] slots = new int[6][];
            for (int f = 0; f < 6; f++) slots[f] = new int[0];
            string lastGeneration = "";
            int variation = 0;
            if (!Expect(json, pos, '{')) return;
            if (Peek(json, pos) == '}') pos[0]++;
            else
            {
                while (pos[0] >= 0)
                {
                    string key = ReadString(json, pos);
                    if (!Expect(json, pos, ':')) return;
                    if (key == "MetaData") slots = ReadAtlasSlots(json, pos);
                    else if (key == "LastGeneration") lastGeneration = ReadString(json, pos);
                    else if (key == "Variation") variation = (int)ReadNumber(json, pos);
                    else SkipValue(json, pos);
                    if (pos[0] < 0) return;
                    if (!EndOfMember(json, pos, '}')) break;
                }
            }
            if (pos[0] < 0) return;
            doc[AtlasSlots] = slots;
            doc[AtlasLastGeneration] = lastGeneration;
            doc[AtlasVariation] = variation;
        }

        private static int[][] ReadAtlasSlots(string json, int[] pos)
        {
            int[][] fields = new int[6][];
            int capacity = 16;
            for (int f = 0; f < 6; f++) fields[f] = new int[capacity];
            int count = 0;
            if (!Expect(json, pos, '[')) return null;
            if (Peek(json, pos) == ']') pos[0]++;
            else
            {
                while (pos[0] >= 0)
                {
                    if (count == capacity)
                    {
                        capacity *= 2;
                        for (int f = 0; f < 6; f++) fields[f] = GrowInts(fields[f], capacity);
                    }
                    if (!Expect(json, pos, '{')) return null;
                    while (pos[0] >= 0)
                    {
                        string key = ReadString(json, pos);
                        if (!Expect(json, pos, ':')) return null;
                        int field = -1;
                        if (key == "SlotId") field = SlotId;
                        else if (key == "AtlasIndex") field = AtlasIndex;
                        else if (key == "X") field = X;
                        else if (key == "Y") field = Y;
                        else if (key == "Width") field = Width;
                        else if (key == "Height") field = Height;
                        if (field >= 0) fields[field][count] = (int)ReadNumber(json, pos);
                        else SkipValue(json, pos);
                        if (!EndOfMember(json, pos, '}')) break;
                    }
                    count++;
                    if (!EndOfMember(json, pos, ']')) break;
                }
            }
            if (pos[0] < 0) return null;
            for (int f = 0; f < 6; f++) fields[f] = GrowInts(fields[f], count);
            return fields;
        }

        /// <summary>["…", "…"]; null (and pos -1) for anything else.</summary>
        public static string[] ReadStringArray(string json, int[] pos)
        {
            string[] items = new string[16];
            int count = 0;
            if (!Expect(json, pos, '[')) return null;
            if (Peek(json, pos) == ']') pos[0]++;
            else
            {
                while (pos[0] >= 0)
                {
                    string item = ReadString(json, pos);
                    if (pos[0] < 0) return null;
                    if (count == items.Length) items = GrowStrings(items, count * 2);
                    items[count] = item;
                    count++;
                    if (!EndOfMember(json, pos, ']')) break;
                }
            }
            if (pos[0] < 0) return null;
            return GrowStrings(items, count);
        }

        /// <summary>After a member: true on ',', false on the closing character, failure on anything else.</summary>
        private static bool EndOfMember(string json, int[] pos, char close)
        {
            if (pos[0] < 0) return false;
            char c = Peek(json, pos);
            if (c == ',') { pos[0]++; return true; }
            if (c == close) { pos[0]++; return false; }
            pos[0] = -1;
            return false;
        }

        /// <summary>A JSON string at pos (after white space), unescaped; null and pos -1 if there is none.</summary>
        public static string ReadString(string json, int[] pos)
        {
            if (!Expect(json, pos, '"')) return null;
            int start = pos[0];
            int i = start;
            // Fast path: no escapes, one Substring.
            while (i < json.Length && json[i] != '"' && json[i] != '\\') i++;
            if (i >= json.Length) { pos[0] = -1; return null; }
            if (json[i] == '"')
            {
                pos[0] = i + 1;
                return json.Substring(start, i - start);
            }
            char[] chars = new char[json.Length - start];
            int n = 0;
            for (int k = start; k < i; k++) { chars[n] = json[k]; n++; }
            while (i < json.Length)
            {
                char c = json[i];
                if (c == '"')
                {
                    pos[0] = i + 1;
                    return new string(chars, 0, n);
                }
                if (c == '\\')
                {
                    if (i + 1 >= json.Length) break;
                    char e = json[i + 1];
                    i += 2;
                    if (e == 'n') c = '\n';
                    else if (e == 't') c = '\t';
                    else if (e == 'r') c = '\r';
                    else if (e == 'b') c = '\b';
                    else if (e == 'f') c = '\f';
                    else if (e == '"' || e == '\\' || e == '/') c = e;
                    else if (e == 'u' && i + 4 <= json.Length)
                    {
                        int code = 0;
                        for (int k = 0; k < 4; k++)
                        {
                            int h = HexValue(json[i + k]);
                            if (h < 0) { pos[0] = -1; return null; }
                            code = code * 16 + h;
                        }
                        i += 4;
                        c = (char)code;
                    }
                    else break;
                }
                else i++;
                chars[n] = c;
                n++;
            }
            pos[0] = -1;
            return null;
        }

        private static int HexValue(char c)
        {
            if (c >= '0' && c <= '9') return c - '0';
            if (c >= 'a' && c <= 'f') return c - 'a' + 10;
            if (c >= 'A' && c <= 'F') return c - 'A' + 10;
            return -1;
        }

        /// <summary>A JSON number, computed by hand (double.Parse would follow the player's locale).</summary>
        public static double ReadNumber(string json, int[] pos)
        {
            SkipSpace(json, pos);
            if (pos[0] < 0) return 0;
            int i = pos[0];
            double sign = 1;
            if (i < json.Length && json[i] == '-') { sign = -1; i++; }
            int digitsStart = i;
            double value = 0;
            while (i < json.Length && json[i] >= '0' && json[i] <= '9') { value = value * 10 + (json[i] - '0'); i++; }
            if (i == digitsStart) { pos[0] = -1; return 0; }
            if (i < json.Length && json[i] == '.')
            {
                i++;
                double scale = 0.1;
                while (i < json.Length && json[i] >= '0' && json[i] <= '9') { value += (json[i] - '0') * scale; scale /= 10; i++; }
            }
            if (i < json.Length && (json[i] == 'e' || json[i] == 'E'))
            {
                i++;
                int expSign = 1;
                if (i < json.Length && (json[i] == '+' || json[i] == '-')) { if (json[i] == '-') expSign = -1; i++; }
                int exp = 0;
                while (i < json.Length && json[i] >= '0' && json[i] <= '9') { exp = exp * 10 + (json[i] - '0'); i++; }
                for (int k = 0; k < exp && k < 400; k++) value = expSign > 0 ? value * 10 : value / 10;
            }
            pos[0] = i;
            return sign * value;
        }

        /// <summary>Skips any JSON value (object, array, string, number, true, false, null).</summary>
        public static void SkipValue(string json, int[] pos)
        {
            SkipSpace(json, pos);
            if (pos[0] < 0) return;
            char c = Peek(json, pos);
            if (c == '"') { ReadString(json, pos); return; }
            if (c == '{' || c == '[')
            {
                char close = c == '{' ? '}' : ']';
                pos[0]++;
                if (Peek(json, pos) == close) { pos[0]++; return; }
                while (pos[0] >= 0)
                {
                    if (c == '{')
                    {
                        ReadString(json, pos);
                        if (!Expect(json, pos, ':')) return;
                    }
                    SkipValue(json, pos);
                    if (!EndOfMember(json, pos, close)) return;
                }
                return;
            }
            if (c == 't') { ExpectWord(json, pos, "true"); return; }
            if (c == 'f') { ExpectWord(json, pos, "false"); return; }
            if (c == 'n') { ExpectWord(json, pos, "null"); return; }
            ReadNumber(json, pos);
        }

        private static void ExpectWord(string json, int[] pos, string word)
        {
            if (pos[0] + word.Length <= json.Length && json.Substring(pos[0], word.Length) == word) pos[0] += word.Length;
            else pos[0] = -1;
        }

        private static void SkipSpace(string json, int[] pos)
        {
            if (pos[0] < 0) return;
            int i = pos[0];
            while (i < json.Length && (json[i] == ' ' || json[i] == '\n' || json[i] == '\r' || json[i] == '\t')) i++;
            pos[0] = i;
        }

        /// <summary>The next non-space character (pos moves to it), or '\0' at the end or after a failure.</summary>
        private static char Peek(string json, int[] pos)
        {
            SkipSpace(json, pos);
            if (pos[0] < 0 || pos[0] >= json.Length) return '\0';
            return json[pos[0]];
        }

        private static bool Expect(string json, int[] pos, char c)
        {
            if (Peek(json, pos) != c || pos[0] < 0)
            {
                pos[0] = -1;
                return false;
            }
            pos[0]++;
            return true;
        }

        private static string[] GrowStrings(string[] items, int size)
        {
            string[] grown = new string[size];
            int n = items.Length < size ? items.Length : size;
            for (int i = 0; i < n; i++) grown[i] = items[i];
            return grown;
        }

        private static int[] GrowInts(int[] items, int size)
        {
            int[] grown = new int[size];
            int n = items.Length < size ? items.Length : size;
            for (int i = 0; i < n; i++) grown[i] = items[i];
            return grown;
        }

        // ---- Queries (worlds match the local player by VRChat display name) ----

        /// <summary>The names listed under a role name in GuildUsers (or GroupUsers), or null if absent.</summary>
        public static string[] NamesInRole(object[] doc, string roleName, bool group)
        {
            if (doc == null) return null;
            string[] names = (string[])doc[group ? GroupRoleNames : GuildRoleNames];
            string[][] users = (string[][])doc[group ? GroupRoleUsers : GuildRoleUsers];
            if (names == null) return null;
            for (int i = 0; i < names.Length; i++)
            {
                if (names[i] == roleName) return users[i];
            }
            return null;
        }

        public static bool IsInRole(object[] doc, string displayName, string roleName, bool group)
        {
            return Contains(NamesInRole(doc, roleName, group), displayName);
        }

        /// <summary>The role name a Discord role id (or group role id) maps to, or null.</summary>
        public static string RoleNameOfId(object[] doc, string roleId, bool group)
        {
            if (doc == null) return null;
            string[] ids = (string[])doc[group ? GroupRoleMapIds : GuildRoleMapIds];
            string[] names = (string[])doc[group ? GroupRoleMapNames : GuildRoleMapNames];
            if (ids == null) return null;
            for (int i = 0; i < ids.Length; i++)
            {
                if (ids[i] == roleId) return names[i];
            }
            return null;
        }

        public static bool IsAgeVerified(object[] doc, string displayName)
        {
            if (doc == null) return false;
            return Contains((string[])doc[AgeVerifiedUsers], displayName);
        }

        public static bool Contains(string[] names, string name)
        {
            if (names == null || name == null) return false;
            for (int i = 0; i < names.Length; i++)
            {
                if (names[i] == name) return true;
            }
            return false;
        }

        /// <summary>The index of a slot id in AtlasDetail.MetaData, or -1.</summary>
        public static int AtlasSlotIndex(object[] doc, int slotId)
        {
            if (doc == null || doc[AtlasSlots] == null) return -1;
            int[] ids = ((int[][])doc[AtlasSlots])[SlotId];
            for (int i = 0; i < ids.Length; i++)
            {
                if (ids[i] == slotId) return i;
            }
            return -1;
        }

        /// <summary>
        /// Material tiling and offset {scaleX, scaleY, offsetX, offsetY} showing a pixel rectangle of an atlas:
        /// AtlasDetail's origin is the top-left, texture coordinates start at the bottom-left.
        /// </summary>
        public static float[] UvRect(int x, int y, int width, int height, int atlasWidth, int atlasHeight)
        {
            float[] uv = new float[4];
            if (atlasWidth <= 0 || atlasHeight <= 0) return uv;
            uv[0] = (float)width / atlasWidth;
            uv[1] = (float)height / atlasHeight;
            uv[2] = (float)x / atlasWidth;
            uv[3] = 1f - (float)(y + height) / atlasHeight;
            return uv;
        }
    }
}
