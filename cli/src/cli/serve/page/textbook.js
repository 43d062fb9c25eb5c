// The textbook's table live: Russell & Norvig's (or Hazan's) experiment run on the server, each
// depth's row streamed as it finishes beside the published figures; cancellable, exportable,
// reproducible by its seed. Its settings are in the URL, and the table shown is kept in the
// tab's sessionStorage, so a reload shows it again; a run a reload stopped is said.

import { download, heuristicName } from './draw.js';

/** Where the table shown is kept for a reload (this tab only). */
const STORE = 'slidetable-textbook';

/** The form's fields kept in the URL: [element id, URL key]. */
const FIELDS = [['textbook-preset', 'tp'], ['textbook-depths', 'td'], ['textbook-count', 'tc'], ['textbook-seed', 'ts']];

/** Whether the page is being left (a reload, a link followed). */
let leaving = false;
window.addEventListener('pagehide', () => { leaving = true; });
window.addEventListener('pageshow', () => { leaving = false; });

/** Keeps the table shown (and whether a run is going on) for a reload of this tab. */
function keep(running) {
  try {
    sessionStorage.setItem(STORE, JSON.stringify({ meta, rows, status: $('textbook-status').textContent,
      state: $('textbook-status').dataset.state || '', running }));
  } catch (_) {
    // storage full or refused: a reload then starts afresh
  }
}

let app;
let $;
let job = null;
let rows = [];
let columns = [];
let meta = null;

export function init(a) {
  app = a;
  $ = a.$;
  $('textbook-run').addEventListener('click', start);
  $('textbook-cancel').addEventListener('click', () => job && job.abort());
  $('textbook-csv').addEventListener('click', () => download('textbook.csv', 'text/csv', csv()));
  $('textbook-json').addEventListener('click', () => download('textbook.json', 'application/json', JSON.stringify({ ...meta, rows }, null, 2)));
  for (const [id, key] of FIELDS) {
    const el = $(id);
    const fallback = el.value;
    const set = (v) => {
      if (el.tagName === 'SELECT') app.choose(el, v, fallback, key);
      else el.value = v;
    };
    set(app.param(key, fallback));
    el.addEventListener('change', () => app.setParams({ [key]: el.value }));
    app.onState((state, before) => {
      if (state.panel[key] !== undefined && state.panel[key] !== before.panel[key] && el.value !== state.panel[key]) set(state.panel[key]);
    });
  }
  // the table this tab showed before a reload
  let kept = null;
  try {
    kept = JSON.parse(sessionStorage.getItem(STORE) || 'null');
  } catch (_) {
    kept = null;
  }
  if (kept && kept.meta && Array.isArray(kept.rows)) {
    meta = kept.meta;
    columns = meta.columns;
    rows = kept.rows;
    head();
    rows.forEach(row);
    $('textbook-status').textContent = kept.status || '';
    $('textbook-status').dataset.state = kept.state || '';
  }
  if (kept && kept.running) {
    const n = rows.length;
    $('textbook-status').textContent = `stopped when the page ${app.leftBy()}${n ? ` after ${n} depth(s)` : ''}: run it again`;
    $('textbook-status').dataset.state = 'interrupted';
    app.say(`the textbook run was stopped when the page ${app.leftBy()}: run it again`, 'error');
    keep(false);
  }
}

function start() {
  if (job) {
    app.say('a run is going on: cancel it first', 'error');
    return;
  }
  const depths = $('textbook-depths').value.split(/[\s,]+/).filter((t) => t).map(Number);
  if (!depths.length || depths.some((d) => !Number.isInteger(d) || d < 0)) {
    app.say('depths: a list of whole numbers, like 2, 4, 6', 'error');
    return;
  }
  const body = {
    preset: $('textbook-preset').value,
    depths,
    count: Number($('textbook-count').value),
    seed: Number($('textbook-seed').value),
  };
  rows = [];
  columns = [];
  $('textbook-head').replaceChildren();
  $('textbook-rows').replaceChildren();
  $('textbook-status').textContent = 'running...';
  $('textbook-status').dataset.state = 'running';
  $('textbook-cancel').disabled = false;
  let failed = null;
  meta = null;
  keep(true);
  job = app.job('experiment', '/api/jobs/experiment', body, (name, data) => {
    if (name === 'start') {
      meta = data;
      columns = data.columns;
      head();
    } else if (name === 'row') {
      rows.push(data);
      row(data);
      keep(true);
    } else if (name === 'error') {
      failed = data.error;
      $('textbook-status').textContent = `failed: ${data.error}`;
    } else if (name === 'done') {
      $('textbook-status').textContent = data.cancelled ? `cancelled after ${rows.length} depth(s)` : `done: ${rows.length} depths`;
      if (data.cancelled) $('textbook-status').dataset.state = 'cancelled';
    }
  });
  job.done
    .then((aborted) => {
      if (aborted) {
        $('textbook-status').textContent = `cancelled after ${rows.length} depth(s)`;
        $('textbook-status').dataset.state = 'cancelled';
      } else if ($('textbook-status').dataset.state !== 'cancelled') {
        $('textbook-status').dataset.state = failed ? 'failed' : 'done';
      }
    })
    .catch((e) => {
      $('textbook-status').textContent = e.message;
      $('textbook-status').dataset.state = 'refused';
    })
    .finally(() => {
      $('textbook-cancel').disabled = true;
      job = null;
      // not on leaving the page, which stops the run too: a reload then says it was stopped
      setTimeout(() => { if (!leaving) keep(false); }, 0);
    });
}

function th(tr, text, span, cls) {
  const cell = document.createElement('th');
  cell.textContent = text;
  if (span) cell.colSpan = span;
  if (cls) cell.className = cls;
  tr.append(cell);
}

/** A column as the menus name its heuristic: the server's `A*(hamming)` is "A* with misplaced
 * tiles (h1)"; a column without a heuristic (IDS) as it is. */
function columnName(c) {
  const m = /^(.*?)\s*\(([a-z-]+)\)$/.exec(c);
  return m ? `${m[1]} with ${heuristicName(m[2])}` : c;
}

function head() {
  const top = document.createElement('tr');
  const sub = document.createElement('tr');
  th(top, 'depth');
  th(top, 'problems');
  for (const c of columns) {
    th(top, columnName(c), 4, 'group');
    th(sub, 'generated');
    th(sub, 'book', 0, 'book');
    th(sub, 'b*');
    th(sub, 'book', 0, 'book');
  }
  top.firstChild.rowSpan = 2;
  top.children[1].rowSpan = 2;
  $('textbook-head').append(top, sub);
  const option = [...$('textbook-preset').options].find((o) => o.value === meta.preset);
  const preset = option ? option.textContent : meta.preset;
  $('textbook-note').textContent = `This run: ${preset}'s experiment, on the 3x3 with the goal its book uses (${meta.goal}, `
    + `whatever the goal menu above says), ${meta.count} problems a depth (fewer where fewer boards lie at that depth), seed ${meta.seed}. `
    + '"generated" is our mean of nodes generated, "b*" the effective branching factor; "book" the published figure beside each.';
}

const num = (v, digits) => (v === null || v === undefined ? '' : digits === undefined ? Math.round(v).toLocaleString('en-US') : v.toFixed(digits));

function row(r) {
  const tr = document.createElement('tr');
  const add = (t, cls) => {
    const td = document.createElement('td');
    td.textContent = t;
    if (cls) td.className = cls;
    tr.append(td);
  };
  add(String(r.depth));
  add(String(r.problems));
  for (const c of r.cells) {
    if (!c) {
      for (let i = 0; i < 4; i++) add('-');
      continue;
    }
    add(num(c.mean_generated), 'num');
    add(num(c.published), 'num book');
    add(num(c.b_star, 2), 'num');
    add(num(c.published_b_star, 2), 'num book');
  }
  $('textbook-rows').append(tr);
}

function csv() {
  const head = ['depth', 'problems'];
  for (const c of columns.map(columnName)) head.push(`${c} mean generated`, `${c} published`, `${c} b*`, `${c} published b*`);
  const lines = rows.map((r) => [r.depth, r.problems, ...r.cells.flatMap((c) => (c
    ? [c.mean_generated, c.published ?? '', c.b_star ?? '', c.published_b_star ?? '']
    : ['', '', '', '']))].join(','));
  return [head.map((h) => `"${h}"`).join(','), ...lines].join('\n') + '\n';
}
