// The textbook's table live: Russell & Norvig's (or Hazan's) experiment run on the server, each
// depth's row streamed as it finishes beside the published figures; cancellable, exportable,
// reproducible by its seed.

import { download } from './draw.js';

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
  job = app.job('experiment', '/api/jobs/experiment', body, (name, data) => {
    if (name === 'start') {
      meta = data;
      columns = data.columns;
      head();
    } else if (name === 'row') {
      rows.push(data);
      row(data);
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
    });
}

function th(tr, text, span, cls) {
  const cell = document.createElement('th');
  cell.textContent = text;
  if (span) cell.colSpan = span;
  if (cls) cell.className = cls;
  tr.append(cell);
}

function head() {
  const top = document.createElement('tr');
  const sub = document.createElement('tr');
  th(top, 'depth');
  th(top, 'problems');
  for (const c of columns) {
    th(top, c, 4, 'group');
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
  for (const c of columns) head.push(`${c} mean generated`, `${c} published`, `${c} b*`, `${c} published b*`);
  const lines = rows.map((r) => [r.depth, r.problems, ...r.cells.flatMap((c) => (c
    ? [c.mean_generated, c.published ?? '', c.b_star ?? '', c.published_b_star ?? '']
    : ['', '', '', '']))].join(','));
  return [head.map((h) => `"${h}"`).join(','), ...lines].join('\n') + '\n';
}
