/** Minimal HTML helpers for the simulator's Discord pages (no external assets, works offline). */

export function esc(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const STYLE = `
  :root { color-scheme: dark; }
  body { margin: 0; font: 15px/1.45 system-ui, sans-serif; background: #1e1f22; color: #dbdee1; }
  main { max-width: 560px; margin: 32px auto; background: #2b2d31; border-radius: 8px; padding: 24px 28px; }
  main.wide { max-width: 900px; }
  h1 { font-size: 20px; margin: 0 0 4px; color: #f2f3f5; }
  h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: #b5bac1; margin: 20px 0 8px; }
  .muted { color: #949ba4; font-size: 13px; }
  .banner { background: #5865f2; color: #fff; padding: 8px 12px; border-radius: 4px; font-size: 13px; }
  .error { background: #da373c; color: #fff; padding: 8px 12px; border-radius: 4px; margin: 12px 0; }
  ul.scopes { padding-left: 20px; } ul.scopes li { margin: 2px 0; }
  input[type=search], select { width: 100%; box-sizing: border-box; padding: 8px 10px; border-radius: 4px;
    border: 1px solid #1e1f22; background: #1e1f22; color: #dbdee1; font: inherit; }
  .users { max-height: 320px; overflow-y: auto; margin-top: 8px; border: 1px solid #1e1f22; border-radius: 4px; }
  .user { display: flex; align-items: center; gap: 10px; padding: 6px 10px; cursor: pointer; }
  .user:hover { background: #35373c; }
  .avatar { width: 28px; height: 28px; border-radius: 50%; display: inline-flex; align-items: center;
    justify-content: center; font-weight: 600; color: #fff; flex: none; }
  .actions { display: flex; justify-content: flex-end; gap: 12px; margin-top: 24px; }
  button { font: inherit; border: 0; border-radius: 4px; padding: 9px 18px; cursor: pointer; }
  button.primary { background: #5865f2; color: #fff; } button.secondary { background: transparent; color: #dbdee1; }
  table { width: 100%; border-collapse: collapse; } td, th { text-align: left; padding: 6px 8px; border-bottom: 1px solid #1e1f22; }
  .role { display: inline-block; font-size: 12px; padding: 1px 8px; margin: 1px 2px; border-radius: 10px;
    border: 1px solid currentColor; }
  a { color: #00a8fc; }
`;

export function layout(title: string, body: string, opts: { wide?: boolean; script?: string } = {}): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body><main${opts.wide ? ' class="wide"' : ''}>${body}</main>${opts.script ? `<script>${opts.script}</script>` : ''}</body></html>`;
}

/** A coloured initial standing in for a Discord avatar. */
export function avatar(name: string, seed: string): string {
  const hue = Number(BigInt(seed) % 360n);
  return `<span class="avatar" aria-hidden="true" style="background:hsl(${hue} 45% 42%)">${esc(name.slice(0, 1).toUpperCase())}</span>`;
}

export const hexColor = (color: number) => (color ? `#${color.toString(16).padStart(6, '0')}` : '#b5bac1');
