// Pictures shared by the panels: a board drawn small (for lists, examples and the A* tree), the
// same board as SVG (for slides), and downloads of what a panel shows (PNG from a canvas, SVG,
// CSV, JSON).

/** The heuristics' names as the page's menus say them; the machine names (`hamming`, `pdb`)
 * stay in the API and in JSON fields. */
export const HEURISTIC_NAMES = {
  zero: 'zero (uniform cost)', hamming: 'misplaced tiles (h1)', manhattan: 'Manhattan (h2)',
  'linear-conflict': 'linear conflict', pdb: 'pattern tables', nilsson: "Nilsson's P + 3S",
};

/** The display name of heuristic `name` (its machine name when the page has none for it). */
export function heuristicName(name) {
  return HEURISTIC_NAMES[name] || name;
}

/** A small picture of a board (`cells` row by row, 0 the blank), named by its rows for screen readers. */
export function miniBoard(cells, cols, { size = 1.3, home = null, title = '' } = {}) {
  const el = document.createElement('div');
  el.className = 'mini';
  el.style.setProperty('--cols', String(cols));
  el.style.setProperty('--mini', `${size}rem`);
  el.setAttribute('role', 'img');
  const rows = [];
  for (let i = 0; i < cells.length; i += cols) rows.push(cells.slice(i, i + cols).map((t) => (t === 0 ? '_' : t)).join(' '));
  el.setAttribute('aria-label', `${title ? `${title}: ` : ''}board ${rows.join(' / ')}`);
  cells.forEach((t, i) => {
    const c = document.createElement('span');
    c.className = t === 0 ? 'mini-blank' : home && home[i] === t ? 'mini-tile mini-home' : 'mini-tile';
    c.textContent = t === 0 ? '' : String(t);
    el.append(c);
  });
  return el;
}

/** A board as an SVG document: tiles with their numbers, optional labels under them. */
export function boardSvg(cells, cols, { tile = 80, caption = '', home = null } = {}) {
  const rows = cells.length / cols;
  const gap = 6;
  const w = Math.max(cols * (tile + gap) + gap, caption ? Math.ceil(caption.length * 11.5) + 16 : 0);
  const h = rows * (tile + gap) + gap + (caption ? 36 : 0);
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" font-family="DejaVu Sans, system-ui, sans-serif">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<rect x="${(w - (cols * (tile + gap) + gap)) / 2}" y="0" width="${cols * (tile + gap) + gap}" height="${rows * (tile + gap) + gap}" rx="8" fill="#343a40"/>`];
  const left = (w - (cols * (tile + gap) + gap)) / 2;
  cells.forEach((t, i) => {
    if (t === 0) return;
    const x = left + gap + (i % cols) * (tile + gap);
    const y = gap + Math.floor(i / cols) * (tile + gap);
    const fill = home && home[i] === t ? '#d0ebff' : '#e9ecef';
    parts.push(`<rect x="${x}" y="${y}" width="${tile}" height="${tile}" rx="6" fill="${fill}"/>`);
    parts.push(`<text x="${x + tile / 2}" y="${y + tile / 2}" font-size="${tile * 0.45}" font-weight="bold" fill="#111" text-anchor="middle" dominant-baseline="central">${t}</text>`);
  });
  if (caption) {
    parts.push(`<text x="${w / 2}" y="${h - 12}" font-size="20" fill="#111" text-anchor="middle">${escapeXml(caption)}</text>`);
  }
  parts.push('</svg>');
  return parts.join('\n');
}

/** A table (a header row and rows of cells) as an SVG document, for slides. */
export function tableSvg(head, rows, { title = '' } = {}) {
  const font = 18;
  const pad = 10;
  const widths = head.map((h, i) => Math.max(String(h).length, ...rows.map((r) => String(r[i] ?? '').length)) * font * 0.62 + 2 * pad);
  const lineH = font * 1.7;
  const top = title ? lineH : 0;
  // wide enough for the title too (bold: about 0.68 of the font size a character)
  const w = Math.max(widths.reduce((a, b) => a + b, 0), title.length * font * 0.68 + 2) + 2;
  const h = top + (rows.length + 1) * lineH + 2;
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" width="${Math.ceil(w)}" height="${Math.ceil(h)}" viewBox="0 0 ${Math.ceil(w)} ${Math.ceil(h)}" font-family="DejaVu Sans, system-ui, sans-serif" font-size="${font}">`,
    `<rect width="100%" height="100%" fill="#fff"/>`];
  if (title) parts.push(`<text x="1" y="${font * 1.2}" font-weight="bold">${escapeXml(title)}</text>`);
  [head, ...rows].forEach((r, j) => {
    let x = 1;
    const y = top + j * lineH + 1;
    if (j === 0) parts.push(`<rect x="1" y="${y}" width="${w - 2}" height="${lineH}" fill="#e9ecef"/>`);
    r.forEach((v, i) => {
      parts.push(`<text x="${x + pad}" y="${y + lineH * 0.68}"${j === 0 ? ' font-weight="bold"' : ''}>${escapeXml(String(v ?? ''))}</text>`);
      x += widths[i];
    });
    parts.push(`<line x1="1" y1="${y + lineH}" x2="${w - 1}" y2="${y + lineH}" stroke="#ced4da"/>`);
  });
  parts.push('</svg>');
  return parts.join('\n');
}

function escapeXml(s) {
  return s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' }[c]));
}

/** Offers `text` (or a Blob) as a file named `name`. */
export function download(name, type, text) {
  const blob = text instanceof Blob ? text : new Blob([text], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Offers a canvas as a PNG file named `name`. */
export function downloadCanvas(canvas, name) {
  return new Promise((done) => {
    canvas.toBlob((blob) => {
      if (blob) download(name, 'image/png', blob);
      done(Boolean(blob));
    }, 'image/png');
  });
}
