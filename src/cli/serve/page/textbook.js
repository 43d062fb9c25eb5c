// The textbook's table live: Russell & Norvig's (or Hazan's) experiment run on the server, each
// depth's row streamed as it finishes beside the published figures; cancellable, exportable,
// reproducible by its seed.

import { download } from './compare.js';

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
  const depths = $('textbook-depths').value.split(/[\s,]+/).filter((t) => t).map(Number);
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
  job = app.job('experiment', '/api/jobs/experiment', body, (name, data) => {
    if (name === 'start') {
      meta = data;
      columns = data.columns;
      head();
    } else if (name === 'row') {
      rows.push(data);
      row(data);
    } else if (name === 'done') {
      $('textbook-status').textContent = data.cancelled ? 'cancelled' : `done: ${rows.length} depths`;
    }
  });
  job.done
    .then((aborted) => {
      if (aborted) {
        $('textbook-status').textContent = `cancelled after ${rows.length} depth(s)`;
        $('textbook-status').dataset.state = 'cancelled';
      } else {
        $('textbook-status').dataset.state = 'done';
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

function head() {
  const tr = document.createElement('tr');
  const cells = ['depth', 'problems'];
  for (const c of columns) cells.push(`${c} ours`, `${c} book`, `${c} b*`);
  for (const c of cells) {
    const th = document.createElement('th');
    th.textContent = c;
    tr.append(th);
  }
  $('textbook-head').append(tr);
  $('textbook-note').textContent = `Preset ${meta.preset} (goal ${meta.goal}), ${meta.count} problems a depth, seed ${meta.seed}: `
    + 'the same seed gives the same boards and the same figures. "book" is the published mean of nodes generated.';
}

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
      add('-');
      add('-');
      add('-');
      continue;
    }
    add(Math.round(c.mean_generated).toLocaleString('en-US'), 'num');
    add(c.published === null ? '' : c.published.toLocaleString('en-US'), 'num book');
    add(c.b_star === null ? '' : c.b_star.toFixed(2), 'num');
  }
  $('textbook-rows').append(tr);
}

function csv() {
  const head = ['depth', 'problems'];
  for (const c of columns) head.push(`${c} mean generated`, `${c} published`, `${c} b*`);
  const lines = rows.map((r) => [r.depth, r.problems, ...r.cells.flatMap((c) => (c ? [c.mean_generated, c.published ?? '', c.b_star ?? ''] : ['', '', '']))].join(','));
  return [head.map((h) => `"${h}"`).join(','), ...lines].join('\n') + '\n';
}
