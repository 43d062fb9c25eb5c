// Compare runs: several searches on the board shown, streamed as each finishes, kept in a
// transcript across boards that can be cleared or exported (CSV, JSON). The transcript is kept
// in the tab's sessionStorage, so a reload shows it again; a comparison a reload stopped is said.

import { download, heuristicName } from './draw.js';

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
/** Where the transcript is kept for a reload (this tab only), and a comparison running. */
const STORE = 'slidetable-compare';
const ALGORITHMS = { bfs: 'BFS', ids: 'IDS', astar: 'A*', idastar: 'IDA*', greedy: 'greedy' };

/** A run's name as the page says it (`A* with Manhattan (h2)`), from its machine fields. */
function runName(r) {
  const alg = r.algorithm === 'weighted' ? `weighted A* w=${r.weight}` : ALGORITHMS[r.algorithm] || r.algorithm;
  return r.heuristic ? `${alg} with ${heuristicName(r.heuristic)}` : alg;
}

/** Whether the page is being left (a reload, a link followed). */
let leaving = false;
window.addEventListener('pagehide', () => { leaving = true; });
window.addEventListener('pageshow', () => { leaving = false; });

/** Keeps the transcript (and the comparison running, if any) for a reload of this tab. */
function keep(running = null) {
  try {
    sessionStorage.setItem(STORE, JSON.stringify({ transcript, running }));
  } catch (_) {
    // storage full or refused: a reload then starts afresh
  }
}

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
  // a link's `cr` holds run numbers; anything else is said and dropped from the URL
  const checkCr = (value) => {
    const tokens = String(value).split('.').filter((t) => t !== '');
    const good = tokens.filter((t) => /^\d+$/.test(t) && Number(t) < RUNS.length);
    if (good.length === tokens.length) return;
    const bad = tokens.filter((t) => !good.includes(t));
    app.linkProblem(`the link's searches to compare (\`cr=${String(value).slice(0, 40)}\`): \`${bad.join('.').slice(0, 30)}\` names none of the ${RUNS.length} searches (0 to ${RUNS.length - 1}); ignored`);
    queueMicrotask(() => app.setParams({ cr: good.join('.') }));
  };
  checkCr(app.state.panel.cr);
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
    if (state.panel.cr !== undefined && state.panel.cr !== before.panel.cr) {
      checkCr(state.panel.cr);
      show(state.panel.cr);
    }
    if (state.present !== before.present || state.panel.call !== before.panel.call) columns();
    if (state.panel.cw !== undefined && state.panel.cw !== before.panel.cw) weight.value = state.panel.cw;
  });
  $('compare-run').addEventListener('click', start);
  $('compare-clear').addEventListener('click', () => {
    transcript.length = 0;
    keep();
    render();
  });
  // presentation mode shows the columns a class needs (the board is said above the table, the
  // seconds are this machine's); a switch shows every column
  app.param('call', '');
  $('compare-all').addEventListener('change', () => app.setParams({ call: $('compare-all').checked ? '1' : '' }));
  columns();
  // what this tab had before a reload
  let kept = null;
  try {
    kept = JSON.parse(sessionStorage.getItem(STORE) || 'null');
  } catch (_) {
    kept = null;
  }
  if (kept && Array.isArray(kept.transcript)) transcript.push(...kept.transcript);
  if (kept && kept.running) {
    const n = kept.running.done || 0;
    const text = `The comparison was stopped when the page ${app.leftBy()}${n ? ` after ${n} of its ${kept.running.runs} searches` : ''}: run it again.`;
    $('compare-status').textContent = text;
    $('compare-status').hidden = false;
    app.say(text.replace(/^The/, 'the').replace(/\.$/, ''), 'error');
    keep();
  }
  render();
  $('compare-csv').addEventListener('click', () => download('runs.csv', 'text/csv', csv()));
  $('compare-json').addEventListener('click', () => {
    const hide = app.state.practice && !app.answers();
    const named = transcript.map((r) => ({ ...r, label: runName(r) }));
    const rows = hide ? named.map((r) => ({ ...r, length: 'hidden', optimal_length: 'hidden', optimal: 'hidden', ebf: 'hidden' })) : named;
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
  $('compare-status').hidden = true;
  // the job line names the search running and counts its own nodes: the server's count stays on
  // the search before's last figure until the next search reports (A* reports at its end)
  let done = 0;
  let before = null;
  let fresh = false;
  let since = 0;
  let last = null;
  const progress = (data) => {
    if (data.generated !== before) fresh = true;
    last = data;
    const run = runs[Math.min(done, runs.length - 1)];
    const count = fresh && data.generated ? `${data.generated.toLocaleString('en-US')} nodes, ` : '';
    return `compare: search ${done + 1} of ${runs.length}, ${runName(run)}: ${count}${(data.seconds - since).toFixed(1)} s`;
  };
  keep({ runs: runs.length, done: 0 });
  const job = app.job('compare', '/api/jobs/compare', { board, shape: app.pos.shape, goal: app.state.goal, runs }, (name, data) => {
    if (name === 'run') {
      transcript.push({ board, ...data });
      done += 1;
      before = last ? last.generated : null;
      fresh = false;
      since = last ? last.seconds : 0;
      keep({ runs: runs.length, done });
      render();
    }
  }, { progress });
  // not on leaving the page, which stops the job too: a reload then says it was stopped (later,
  // in a task: the page's own abort on pagehide settles this before any listener of ours runs)
  job.done.finally(() => setTimeout(() => { if (!leaving) keep(); }, 0));
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
      td.textContent = k === 'seconds' ? seconds(r[k]) : k === 'label' ? runName(r) : fmt(r[k], d);
      // the length found too: an optimal search's is the optimum; and b*, from which the
      // length follows (the nodes generated and b* give the depth)
      if (hidden && (k === 'optimal_length' || k === 'length' || k === 'ebf') && r[k] !== null) td.textContent = 'hidden';
      if (!hidden && k === 'length' && r.length !== null && r.optimal_length !== null && r.length > r.optimal_length) {
        td.textContent += ` (+${r.length - r.optimal_length})`;
        td.className = 'over';
      }
      if (k !== 'board' && k !== 'label' && k !== 'error') td.classList.add('num');
      if (k === 'error') td.className = 'note';
      td.classList.add(`col-${k}`);
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
  const hide = (c) => (c === 'optimal_length' || c === 'length' || c === 'ebf') && app.state.practice && !app.answers();
  return [COLUMNS.join(','), ...transcript.map((r) => COLUMNS.map((c) => (hide(c) ? 'hidden' : quote(c === 'label' ? runName(r) : r[c]))).join(','))].join('\n') + '\n';
}

/** Shows or hides the columns presentation mode leaves out (the switch shows them all). */
function columns() {
  const all = app.state.panel.call === '1';
  $('compare-all').checked = all;
  $('compare-table').classList.toggle('all', all);
}
