// Plain C# in the subset UdonSharp compiles (no generics, LINQ, lambdas, exceptions, ref/out, static fields):
// the same file is compiled by Mono in the server's CI and by UdonSharp in Unity (see README, "How the code is
// shared"). Format: shared/compat/world-sdk.md, "Body: plain JSON or compressed".
#if UNITY_5_3_OR_NEWER
using UdonSharp;
#endif

namespace VRCLink
{
    /// <summary>Turns the body a world downloads into the JSON text: plain JSON as is, else LZW-decoded UTF-8.</summary>
#if UNITY_5_3_OR_NEWER
    public class VRCLinkLzw : UdonSharpBehaviour
#else
    public class VRCLinkLzw
#endif
    {
        public const int CodeBits = 14;
        public const int FirstEntry = 256;
        /// <summary>The last dictionary entry; 16383 is the end code. The dictionary is never reset once full.</summary>
        public const int LastEntry = 16382;
        public const int EndCode = 16383;

        /// <summary>The JSON text of a downloaded body, or null when a compressed body is corrupt.</summary>
        public static string DecodeBody(string body)
        {
            if (body == null) return null;
            if (body.Length > 0 && body[0] == '{') return body;
            // Compressed bytes travel as one character per byte (U+0000..U+00FF); keep the low byte.
            byte[] packed = new byte[body.Length];
            for (int i = 0; i < body.Length; i++) packed[i] = (byte)(body[i] & 0xff);
            byte[] bytes = Decompress(packed);
            if (bytes == null) return null;
            return Utf8ToString(bytes);
        }

        /// <summary>
        /// LZW with fixed 14-bit codes, most significant bit first. Stops at the end code or when the input runs
        /// out in the middle of a code (the encoder writes one padding code after the end code). Null if corrupt.
        /// </summary>
        public static byte[] Decompress(byte[] input)
        {
            int[] prefix = new int[LastEntry + 1];
            byte[] suffix = new byte[LastEntry + 1];
            int[] size = new int[LastEntry + 1];
            for (int b = 0; b < FirstEntry; b++)
            {
                prefix[b] = -1;
                suffix[b] = (byte)b;
                size[b] = 1;
            }
            byte[] output = new byte[input.Length * 3 + 64];
            int length = 0;
            int next = FirstEntry;
            int previous = -1;
            int pos = 0;
            int acc = 0;
            int bits = 0;
            while (true)
            {
                while (bits < CodeBits && pos < input.Length)
                {
                    acc = ((acc << 8) | input[pos]) & 0x3fffff;
                    pos++;
                    bits += 8;
                }
                if (bits < CodeBits) break;
                bits -= CodeBits;
                int code = (acc >> bits) & ((1 << CodeBits) - 1);
                if (code == EndCode) break;
                if (code > next || (code == next && previous == -1)) return null;

                int entry = code < next ? code : previous;
                int needed = size[entry] + 1;
                if (length + needed > output.Length) output = Grow(output, length + needed);
                int start = length;
                int p = length + size[entry];
                for (int c = entry; c != -1; c = prefix[c])
                {
                    p--;
                    output[p] = suffix[c];
                }
                length += size[entry];
                // KwKwK: the code being defined now is the previous entry plus its own first byte.
                if (code == next)
                {
                    output[length] = output[start];
                    length++;
                }
                if (previous != -1 && next <= LastEntry)
                {
                    prefix[next] = previous;
                    suffix[next] = output[start];
                    size[next] = size[previous] + 1;
                    next++;
                }
                previous = code;
            }
            byte[] result = new byte[length];
            for (int i = 0; i < length; i++) result[i] = output[i];
            return result;
        }

        private static byte[] Grow(byte[] buffer, int minimum)
        {
            int capacity = buffer.Length * 2;
            if (capacity < minimum) capacity = minimum;
            byte[] grown = new byte[capacity];
            for (int i = 0; i < buffer.Length; i++) grown[i] = buffer[i];
            return grown;
        }

        /// <summary>UTF-8 to a string (4-byte sequences become surrogate pairs; malformed bytes become U+FFFD).</summary>
        public static string Utf8ToString(byte[] bytes)
        {
            char[] chars = new char[bytes.Length];
            int n = 0;
            int i = 0;
            while (i < bytes.Length)
            {
                int b = bytes[i];
                int extra;
                int cp;
                if (b < 0x80) { cp = b; extra = 0; }
                else if ((b & 0xe0) == 0xc0) { cp = b & 0x1f; extra = 1; }
                else if ((b & 0xf0) == 0xe0) { cp = b & 0x0f; extra = 2; }
                else if ((b & 0xf8) == 0xf0) { cp = b & 0x07; extra = 3; }
                else { cp = 0xfffd; extra = -1; }
                i++;
                if (extra > 0)
                {
                    if (i + extra > bytes.Length) { cp = 0xfffd; extra = 0; i = bytes.Length; }
                    for (int k = 0; k < extra; k++)
                    {
                        int cont = bytes[i];
                        if ((cont & 0xc0) != 0x80) { cp = 0xfffd; break; }
                        cp = (cp << 6) | (cont & 0x3f);
                        i++;
                    }
                }
                if (cp >= 0x10000)
                {
                    cp -= 0x10000;
                    chars[n] = (char)(0xd800 + (cp >> 10));
                    chars[n + 1] = (char)(0xdc00 + (cp & 0x3ff));
                    n += 2;
                }
                else
                {
                    chars[n] = (char)cp;
                    n++;
                }
            }
            return new string(chars, 0, n);
        }
    }
}
