// Test program (Mono, not shipped): decodes each world-data body file named on the command line with the
// package's own core (VRCLinkLzw, VRCLinkWorldDocument) and prints, one line per file, the document it read as
// JSON in the document's key order, plus the answers of the query methods (raw:<path> prints bytes in hex). world-sdk-csharp.test.ts compares
// each line with the object the server built.
using System;
using System.Globalization;
using System.IO;
using System.Text;
using VRCLink;

public static class WorldDataCheck
{
    public static int Main(string[] args)
    {
        var stdout = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));
        foreach (string arg in args)
        {
            // raw:<path>: the decompressed bytes of a compressed body, in hex (bodies that are not JSON).
            if (arg.StartsWith("raw:"))
            {
                string text = File.ReadAllText(arg.Substring(4), new UTF8Encoding(false));
                byte[] packed = new byte[text.Length];
                for (int i = 0; i < text.Length; i++) packed[i] = (byte)(text[i] & 0xff);
                byte[] bytes = VRCLinkLzw.Decompress(packed);
                stdout.Write(bytes == null ? "null" : "\"" + BitConverter.ToString(bytes).Replace("-", "").ToLowerInvariant() + "\"");
                stdout.Write('\n');
                continue;
            }
            string path = arg;
            string body = File.ReadAllText(path, new UTF8Encoding(false));
            string json = VRCLinkLzw.DecodeBody(body);
            object[] doc = VRCLinkWorldDocument.Parse(json);
            stdout.Write(doc == null ? "null" : Describe(doc));
            stdout.Write('\n');
        }
        stdout.Flush();
        return 0;
    }

    static string Describe(object[] doc)
    {
        var sb = new StringBuilder();
        sb.Append("{\"document\":{");
        sb.Append("\"Version\":").Append(Number((double)doc[VRCLinkWorldDocument.Version]));
        sb.Append(",\"LastUpdated\":").Append(Str((string)doc[VRCLinkWorldDocument.LastUpdated]));
        sb.Append(",\"MemberCount\":").Append(Number((double)doc[VRCLinkWorldDocument.MemberCount]));
        if (doc[VRCLinkWorldDocument.GuildRoleNames] != null)
        {
            sb.Append(",\"GuildUsers\":").Append(RoleUsers(doc, VRCLinkWorldDocument.GuildRoleNames, VRCLinkWorldDocument.GuildRoleUsers));
            sb.Append(",\"GuildRoleMap\":").Append(RoleMap(doc, VRCLinkWorldDocument.GuildRoleMapIds, VRCLinkWorldDocument.GuildRoleMapNames));
        }
        if (doc[VRCLinkWorldDocument.AgeVerifiedUsers] != null)
            sb.Append(",\"AgeVerifiedUsers\":").Append(StrArray((string[])doc[VRCLinkWorldDocument.AgeVerifiedUsers]));
        if (doc[VRCLinkWorldDocument.GroupRoleNames] != null)
        {
            sb.Append(",\"GroupUsers\":").Append(RoleUsers(doc, VRCLinkWorldDocument.GroupRoleNames, VRCLinkWorldDocument.GroupRoleUsers));
            sb.Append(",\"GroupRoleMap\":").Append(RoleMap(doc, VRCLinkWorldDocument.GroupRoleMapIds, VRCLinkWorldDocument.GroupRoleMapNames));
        }
        if (doc[VRCLinkWorldDocument.AtlasSlots] != null)
        {
            int[][] slots = (int[][])doc[VRCLinkWorldDocument.AtlasSlots];
            sb.Append(",\"AtlasDetail\":{\"MetaData\":[");
            for (int i = 0; i < slots[0].Length; i++)
            {
                if (i > 0) sb.Append(',');
                sb.Append("{\"SlotId\":").Append(slots[VRCLinkWorldDocument.SlotId][i]);
                sb.Append(",\"AtlasIndex\":").Append(slots[VRCLinkWorldDocument.AtlasIndex][i]);
                sb.Append(",\"X\":").Append(slots[VRCLinkWorldDocument.X][i]);
                sb.Append(",\"Y\":").Append(slots[VRCLinkWorldDocument.Y][i]);
                sb.Append(",\"Width\":").Append(slots[VRCLinkWorldDocument.Width][i]);
                sb.Append(",\"Height\":").Append(slots[VRCLinkWorldDocument.Height][i]).Append('}');
            }
            sb.Append("],\"LastGeneration\":").Append(Str((string)doc[VRCLinkWorldDocument.AtlasLastGeneration]));
            sb.Append(",\"Variation\":").Append((int)doc[VRCLinkWorldDocument.AtlasVariation]).Append('}');
        }
        if (doc[VRCLinkWorldDocument.CustomDataJson] != null)
            sb.Append(",\"CustomData\":").Append((string)doc[VRCLinkWorldDocument.CustomDataJson]);
        sb.Append('}');

        // The query methods the behaviours call, asked about every name the document lists.
        sb.Append(",\"customDataText\":").Append(Str((string)doc[VRCLinkWorldDocument.CustomDataText]));
        sb.Append(",\"queries\":{");
        bool first = true;
        foreach (string name in AllNames(doc))
        {
            if (!first) sb.Append(',');
            first = false;
            sb.Append(Str(name)).Append(":{\"plus18\":").Append(VRCLinkWorldDocument.IsAgeVerified(doc, name) ? "true" : "false");
            sb.Append(",\"guildRoles\":").Append(RolesOf(doc, name, false));
            sb.Append(",\"groupRoles\":").Append(RolesOf(doc, name, true)).Append('}');
        }
        sb.Append("},\"roleIds\":{");
        string[] ids = (string[])doc[VRCLinkWorldDocument.GuildRoleMapIds] ?? new string[0];
        for (int i = 0; i < ids.Length; i++)
        {
            if (i > 0) sb.Append(',');
            sb.Append(Str(ids[i])).Append(':').Append(Str(VRCLinkWorldDocument.RoleNameOfId(doc, ids[i], false)));
        }
        sb.Append("},\"uv2048\":[");
        if (doc[VRCLinkWorldDocument.AtlasSlots] != null)
        {
            int[][] slots = (int[][])doc[VRCLinkWorldDocument.AtlasSlots];
            for (int i = 0; i < slots[0].Length; i++)
            {
                int at = VRCLinkWorldDocument.AtlasSlotIndex(doc, slots[0][i]);
                float[] uv = VRCLinkWorldDocument.UvRect(slots[2][at], slots[3][at], slots[4][at], slots[5][at], 2048, 2048);
                if (i > 0) sb.Append(',');
                sb.Append('[').Append(F(uv[0])).Append(',').Append(F(uv[1])).Append(',').Append(F(uv[2])).Append(',').Append(F(uv[3])).Append(']');
            }
        }
        sb.Append("]}");
        return sb.ToString();
    }

    static string[] AllNames(object[] doc)
    {
        var names = new System.Collections.Generic.List<string>();
        foreach (int slot in new[] { VRCLinkWorldDocument.GuildRoleUsers, VRCLinkWorldDocument.GroupRoleUsers })
            if (doc[slot] != null)
                foreach (string[] list in (string[][])doc[slot]) foreach (string n in list) if (!names.Contains(n)) names.Add(n);
        if (doc[VRCLinkWorldDocument.AgeVerifiedUsers] != null)
            foreach (string n in (string[])doc[VRCLinkWorldDocument.AgeVerifiedUsers]) if (!names.Contains(n)) names.Add(n);
        return names.ToArray();
    }

    static string RolesOf(object[] doc, string name, bool group)
    {
        string[] roles = (string[])doc[group ? VRCLinkWorldDocument.GroupRoleNames : VRCLinkWorldDocument.GuildRoleNames];
        var held = new System.Collections.Generic.List<string>();
        if (roles != null)
            foreach (string role in roles) if (VRCLinkWorldDocument.IsInRole(doc, name, role, group)) held.Add(role);
        return StrArray(held.ToArray());
    }

    static string RoleUsers(object[] doc, int namesSlot, int usersSlot)
    {
        string[] names = (string[])doc[namesSlot];
        string[][] users = (string[][])doc[usersSlot];
        var sb = new StringBuilder("{");
        for (int i = 0; i < names.Length; i++)
        {
            if (i > 0) sb.Append(',');
            sb.Append(Str(names[i])).Append(':').Append(StrArray(users[i]));
        }
        return sb.Append('}').ToString();
    }

    static string RoleMap(object[] doc, int idsSlot, int namesSlot)
    {
        string[] ids = (string[])doc[idsSlot];
        string[] names = (string[])doc[namesSlot];
        var sb = new StringBuilder("{");
        for (int i = 0; i < ids.Length; i++)
        {
            if (i > 0) sb.Append(',');
            sb.Append(Str(ids[i])).Append(':').Append(Str(names[i]));
        }
        return sb.Append('}').ToString();
    }

    static string StrArray(string[] items)
    {
        var sb = new StringBuilder("[");
        for (int i = 0; i < items.Length; i++)
        {
            if (i > 0) sb.Append(',');
            sb.Append(Str(items[i]));
        }
        return sb.Append(']').ToString();
    }

    static string Number(double d) => d.ToString("R", CultureInfo.InvariantCulture);

    static string F(float f) => f.ToString("R", CultureInfo.InvariantCulture);

    static string Str(string s)
    {
        if (s == null) return "null";
        var sb = new StringBuilder("\"");
        foreach (char c in s)
        {
            if (c == '"' || c == '\\') sb.Append('\\').Append(c);
            else if (c < 0x20 || (c >= 0xd800 && c <= 0xdfff)) sb.Append("\\u").Append(((int)c).ToString("x4"));
            else sb.Append(c);
        }
        return sb.Append('"').ToString();
    }
}
