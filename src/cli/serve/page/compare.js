// Compare runs: several searches on the board shown, streamed as each finishes, kept in a
// transcript across boards that can be cleared or exported (CSV, JSON).

import { download } from './draw.js';

let app;
let $;
const transcript = [];

const RUNS = [
  ['BFS', { algorithm: 'bfs' }],
  ['IDS', { algorithm: 'ids' }],
  ['A* h1 (misplaced)', { algorithm: 'astar', heuristic: 'hamming' }],
  ['A* h2 (Manhattan)', { algorithm: 'astar', heuristic: 'manhattan' }],
  ['A* linear conflict', { algorithm: 'astar', heuristic: 'linear-conflict' }],
  ['A* pattern tables', { algorithm: 'astar', heuristic: 'pdb' }],
  ['IDA* h1 (misplaced)', { algorithm: 'idastar', heuristic: 'hamming' }],
  ['IDA* h2 (Manhattan)', { algorithm: 'idastar', heuristic: 'manhattan' }],
  ['IDA* linear conflict', { algorithm: 'idastar', heuristic: 'linear-conflict' }],
  ['IDA* pattern tables', { algorithm: 'idastar', heuristic: 'pdb' }],
  ['weighted A* (Manhattan)', { algorithm: 'weighted', heuristic: 'manhattan' }],
  ['greedy (Manhattan)', { algorithm: 'greedy', heuristic: 'manhattan' }],
];
const ON = new Set(['BFS', 'A* h1 (misplaced)', 'A* h2 (Manhattan)', 'IDA* linear conflict', 'weighted A* (Manhattan)', 'greedy (Manhattan)']);
const COLUMNS = ['board', 'label', 'algorithm', 'heuristic', 'weight', 'generated', 'expanded', 'ebf', 'length',
  'optimal_length', 'seconds', 'error'];

export function init(a) {
  app = a;
  $ = a.$;
  const box = $('compare-runs');
  // the searches ticked, in the URL (`cr`: their numbers joined by dots) and the weight (`cw`)
  const fallback = RUNS.map(([label], i) => (ON.has(label) ? i : -1)).filter((i) => i >= 0).join('.');
  const ticked = (value) => new Set(value.split('.').filter((t) => t !== '').map(Number));
  RUNS.forEach(([label], i) => {
    const l = document.createElement('label');
    const c = document.createElement('input');
    c.type = 'checkbox';
    c.value = String(i);
    l.append(c, ` ${label}`);
    box.append(l);
    c.addEventListener('change', () => app.setParams({
      cr: [...box.querySelectorAll('input:checked')].map((x) => x.value).join('.'),
    }));
  });
  const show = (value) => {
    const on = ticked(value);
    for (const c of box.querySelectorAll('input')) c.checked = on.has(Number(c.value));
  };
  show(app.param('cr', fallback));
  const weight = $('compare-weight');
  const weightFallback = weight.value;
  weight.value = app.param('cw', weightFallback);
  weight.addEventListener('change', () => app.setParams({ cw: weight.value }));
  const say = () => {
    const pos = app.pos;
    if (!pos) return;
    let d = pos.distance === null ? 'distance not known yet' : `${pos.distance} moves from the goal`;
    if (!app.answers()) d = 'its distance hidden (practice mode)';
    $('compare-board').textContent = `The board shown (${pos.shape}): ${pos.text}, ${d}. Each run's row is added below as it finishes.`;
    render();
  };
  app.onPosition(say);
  app.onState((state, before) => {
    if (state.practice !== before.practice || state.reveal !== before.reveal) say();
    // a link, Back or Forward: the searches and weight it holds
    if (state.panel.cr !== undefined && state.panel.cr !== before.panel.cr) show(state.panel.cr);
    if (state.panel.cw !== undefined && state.panel.cw !== before.panel.cw) weight.value = state.panel.cw;
  });
  $('compare-run').addEventListener('click', start);
  $('compare-clear').addEventListener('click', () => {
    transcript.length = 0;
    render();
  });
  $('compare-csv').addEventListener('click', () => download('runs.csv', 'text/csv', csv()));
  $('compare-json').addEventListener('click', () => {
    const hide = app.state.practice && !app.answers();
    const rows = hide ? transcript.map((r) => ({ ...r, length: 'hidden', optimal_length: 'hidden', optimal: 'hidden' })) : transcript;
    download('runs.json', 'application/json', JSON.stringify(rows, null, 2));
  });
}

function start() {
  if (!app.pos) return;
  const w = Number($('compare-weight').value);
  const runs = [...document.querySelectorAll('#compare-runs input:checked')].map((c) => {
    const r = { ...RUNS[Number(c.value)][1] };
    if (r.algorithm === 'weighted') r.weight = w;
    return r;
  });
  if (!runs.length) {
    app.say('choose at least one search to run', 'error');
    return;
  }
  const board = app.pos.text;
  app.job('compare', '/api/jobs/compare', { board, shape: app.pos.shape, goal: app.state.goal, runs }, (name, data) => {
    if (name === 'run') {
      transcript.push({ board, ...data });
      render();
    }
  });
}

function fmt(v, digits) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return digits === undefined ? v.toLocaleString('en-US') : v.toFixed(digits);
  return String(v);
}

function seconds(v) {
  if (v === null || v === undefined) return '';
  return v >= 1 ? v.toFixed(2) : v === 0 ? '0' : v.toPrecision(2);
}

function render() {
  const body = $('compare-rows');
  body.replaceChildren();
  const hide = !app.answers();
  for (const r of transcript) {
    const tr = document.createElement('tr');
    // in practice mode, the optimum of the board shown is an answer: hidden until asked
    const hidden = hide && r.board === (app.pos && app.pos.text);
    if (r.optimal === false && !hidden) tr.className = 'suboptimal';
    for (const [k, d] of [['board'], ['label'], ['generated'], ['expanded'], ['ebf', 3], ['length'], ['optimal_length'], ['seconds'], ['error']]) {
      const td = document.createElement('td');
      td.textContent = k === 'seconds' ? seconds(r[k]) : fmt(r[k], d);
      // the length found too: an optimal search's is the optimum
      if (hidden && (k === 'optimal_length' || k === 'length') && r[k] !== null) td.textContent = 'hidden';
      if (!hidden && k === 'length' && r.length !== null && r.optimal_length !== null && r.length > r.optimal_length) {
        td.textContent += ` (+${r.length - r.optimal_length})`;
        td.className = 'over';
      }
      if (k !== 'board' && k !== 'label' && k !== 'error') td.classList.add('num');
      if (k === 'error') td.className = 'note';
      tr.append(td);
    }
    body.append(tr);
  }
}

function csv() {
  const quote = (v) => {
    const s = v === null || v === undefined ? '' : String(v);
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  // practice mode keeps the optimum out of the exports too, until the answers are shown
  const hide = (c) => (c === 'optimal_length' || c === 'length') && app.state.practice && !app.answers();
  return [COLUMNS.join(','), ...transcript.map((r) => COLUMNS.map((c) => (hide(c) ? 'hidden' : quote(r[c]))).join(','))].join('\n') + '\n';
}
