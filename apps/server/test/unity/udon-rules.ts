// Reads UdonSharp source and reports what Udon cannot run. A text check, not a compiler: it knows the rules the
// package's README lists ("What UdonSharp allows"), and the Mono compile against stubs checks the types.

export interface UdonViolation {
  file: string;
  line: number;
  rule: string;
  text: string;
}

/** Comments, strings and char literals blanked (same length, newlines kept) so rules only see code. */
export function stripLiterals(source: string): string {
  return source.replace(
    /\/\/[^\n]*|\/\*[\s\S]*?\*\/|@"(?:[^"]|"")*"|\$?"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)+'/g,
    (m) => m.replace(/[^\n]/g, ' '),
  );
}

/** Keeps the lines a compiler would see with these symbols defined (#if X / #else / #endif, no nesting logic beyond a stack). */
export function preprocess(source: string, defines: string[]): string {
  const out: string[] = [];
  const stack: { active: boolean; taken: boolean }[] = [];
  const active = () => stack.every((s) => s.active);
  for (const line of source.split('\n')) {
    const directive = line.trim().match(/^#(if|elif|else|endif)\b\s*(.*)$/);
    if (!directive) {
      out.push(active() ? line : '');
      continue;
    }
    const [, kind, expr] = directive;
    const holds = () => {
      const e = expr.trim();
      return e.startsWith('!') ? !defines.includes(e.slice(1).trim()) : defines.includes(e);
    };
    if (kind === 'if') {
      const taken = holds();
      stack.push({ active: taken, taken });
    } else if (kind === 'elif') {
      const top = stack[stack.length - 1];
      top.active = !top.taken && holds();
      top.taken ||= top.active;
    } else if (kind === 'else') {
      const top = stack[stack.length - 1];
      top.active = !top.taken;
      top.taken = true;
    } else stack.pop();
    out.push('');
  }
  return out.join('\n');
}

const allowedUsings = new Set([
  'UdonSharp',
  'UnityEngine',
  'VRC.SDKBase',
  'VRC.SDK3.Data',
  'VRC.SDK3.StringLoading',
  'VRC.SDK3.Image',
  'VRC.Udon.Common.Interfaces',
]);

const rules: { rule: string; pattern: RegExp }[] = [
  {
    rule: 'generic type or method',
    pattern:
      /\b[A-Za-z_]\w*\s*<\s*[A-Za-z_][\w.]*(?:\s*\[[\s,]*\])*(?:\s*,\s*[A-Za-z_][\w.]*(?:\s*\[[\s,]*\])*)*\s*>/,
  },
  { rule: 'lambda or expression-bodied member (=>)', pattern: /=>/ },
  { rule: 'LINQ query syntax', pattern: /\bfrom\s+\w+\s+in\b/ },
  {
    rule: 'unsupported keyword',
    pattern:
      /\b(?:try|catch|finally|throw|delegate|event|async|await|yield|interface|struct|unsafe|fixed|stackalloc|dynamic|lock|goto|params|typeof|checked|unchecked)\b/,
  },
  { rule: 'null-conditional or null-coalescing operator', pattern: /\?\.|\?\?|\?\[/ },
  {
    rule: 'ref or out parameter in a method declaration',
    pattern: /[(,]\s*(?:ref|out)\s+[\w.[\]]+\s+\w+\s*[,)=]/,
  },
  {
    rule: 'static field (UdonSharp has none)',
    pattern: /\bstatic\s+(?!readonly\b)(?!class\b)[\w.[\]]+\s+\w+\s*(?:=|;)/,
  },
  { rule: 'static readonly field', pattern: /\bstatic\s+readonly\b/ },
  {
    rule: 'API not exposed to Udon',
    pattern:
      /\b(?:System\.(?:Linq|Collections|Text|IO|Threading|Reflection|Net)|StringBuilder|Encoding|Regex|List|Dictionary|HashSet|Queue|Stack|Activator|Thread|Task|File|Console|Environment|GetComponent|Convert|double\.Parse|float\.Parse|int\.Parse)\b/,
  },
];

/** Everything in this source that UdonSharp cannot compile, per the rules above. */
export function checkUdonSource(file: string, source: string): UdonViolation[] {
  const violations: UdonViolation[] = [];
  // What Unity compiles: both the UdonSharp pass and the C# pass define UNITY_5_3_OR_NEWER.
  const code = preprocess(stripLiterals(source), ['UNITY_5_3_OR_NEWER', 'COMPILER_UDONSHARP']);
  const lines = code.split('\n');
  lines.forEach((text, i) => {
    const using = text.match(/^\s*using\s+([\w.]+)\s*;/);
    if (using && !allowedUsings.has(using[1])) {
      violations.push({
        file,
        line: i + 1,
        rule: `using ${using[1]} (not an Udon namespace)`,
        text: text.trim(),
      });
    }
    for (const { rule, pattern } of rules) {
      if (pattern.test(text)) violations.push({ file, line: i + 1, rule, text: text.trim() });
    }
  });
  // UdonSharp has no user classes but behaviours: every class must derive from UdonSharpBehaviour.
  for (const match of code.matchAll(/\bclass\s+(\w+)([^{]*)\{/g)) {
    if (!/:\s*UdonSharpBehaviour\b/.test(match[2])) {
      const line = code.slice(0, match.index).split('\n').length;
      violations.push({
        file,
        line,
        rule: 'class not derived from UdonSharpBehaviour',
        text: `class ${match[1]}`,
      });
    }
  }
  return violations;
}
