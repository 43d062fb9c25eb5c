// A* step by step on the board shown: the open list (g, h, f, h*), the closed set and the search
// tree at any step, each node coloured by g + h against the exact optimum C*: below it the node
// must be expanded, equal it may be, above it it never is.

import { call } from './api.js';

let app;
let $;
let run = null;
let step = 0;
const SHOWN = 40;

export function init(a) {
  app = a;
  $ = a.$;
  $('astar-run').addEventListener('click', start);
  $('astar-first').addEventListener('click', () => go(0));
  $('astar-back').addEventListener('click', () => go(step - 1));
  $('astar-forward').addEventListener('click', () => go(step + 1));
  $('astar-last').addEventListener('click', () => go(run ? run.steps.length : 0));
  document.addEventListener('keydown', (e) => {
    if ($('tab-astar').hidden || !run || ['INPUT', 'SELECT', 'TEXTAREA'].includes(e.target.tagName)) return;
    if (e.key === 'ArrowRight') go(step + 1);
    else if (e.key === 'ArrowLeft') go(step - 1);
  });
}

async function start() {
  if (!app.pos) return;
  const body = {
    board: app.pos.text,
    shape: app.pos.shape,
    goal: app.goal,
    heuristic: $('astar-heuristic').value,
    weight: Number($('astar-weight').value),
    max_expansions: Number($('astar-cap').value),
  };
  const r = await app.guard(() => call('/api/astar', body));
  if (!r) return;
  run = r;
  run.key = run.nodes.map((n) => n.board.join(','));
  $('astar-view').hidden = false;
  const sol = r.solution ? `found a solution of ${r.solution.length} moves${r.solution.length === r.c_star ? ' (optimal)' : ` (the optimum is ${r.c_star})`}` : `stopped after ${r.max_expansions} expansions without reaching the goal`;
  $('astar-summary').textContent = `C* = ${r.c_star} (exact, from the table). A* with ${r.heuristic}`
    + `${r.weight === 1 ? '' : `, f = g + ${r.weight} x h`}: ${r.expansions} expansions, ${r.generated} nodes generated; ${sol}.`;
  go(0);
}

/** The open list and closed set after `k` steps. */
function replay(k) {
  const open = new Map([[run.key[0], 0]]);
  const closed = new Set();
  for (let i = 0; i < k; i++) {
    const s = run.steps[i];
    open.delete(run.key[s.expand]);
    closed.add(s.expand);
    for (const c of s.children) {
      if (c.status === 'new' || c.status === 'better') open.set(run.key[c.node], c.node);
    }
  }
  return { open: [...open.values()], closed };
}

function order(a, b) {
  const x = run.nodes[a];
  const y = run.nodes[b];
  return x.f - y.f || y.g - x.g || a - b;
}

function go(k) {
  if (!run) return;
  step = Math.max(0, Math.min(k, run.steps.length));
  const { open, closed } = replay(step);
  open.sort(order);
  $('astar-step').textContent = `step ${step} of ${run.steps.length}`;
  $('astar-step').dataset.step = String(step);
  const last = step > 0 ? run.steps[step - 1] : null;
  $('astar-now').textContent = last
    ? `Step ${step} expanded node ${last.expand} (${run.nodes[last.expand].board.join(' ')}): `
      + last.children.map((c) => `${c.node} ${c.status}`).join(', ')
    : 'Before the first step: the open list holds the start.';
  $('astar-counts').textContent = `open: ${open.length}   closed: ${closed.size}`;
  $('astar-counts').dataset.open = String(open.length);
  const body = $('astar-open');
  body.replaceChildren();
  for (const id of open.slice(0, SHOWN)) {
    const n = run.nodes[id];
    const tr = document.createElement('tr');
    tr.className = n.class;
    for (const v of [id, n.board.join(' '), n.g, n.h, Number.isInteger(n.f) ? n.f : n.f.toFixed(1), n.hstar, n.class]) {
      const td = document.createElement('td');
      td.textContent = String(v);
      tr.append(td);
    }
    body.append(tr);
  }
  $('astar-more').textContent = open.length > SHOWN ? `and ${open.length - SHOWN} more` : '';
  drawTree(closed, new Set(open));
}

function drawTree(closed, open) {
  const c = $('astar-tree');
  const ctx = c.getContext('2d');
  ctx.clearRect(0, 0, c.width, c.height);
  // the nodes generated so far: the start and the children of the steps done
  const shown = [0];
  for (let i = 0; i < step; i++) for (const ch of run.steps[i].children) shown.push(ch.node);
  const depth = Math.max(1, ...shown.map((id) => run.nodes[id].g));
  const layers = new Map();
  for (const id of shown) {
    const g = run.nodes[id].g;
    if (!layers.has(g)) layers.set(g, []);
    layers.get(g).push(id);
  }
  const pos = new Map();
  const dy = (c.height - 20) / (depth + 1);
  for (const [g, ids] of layers) {
    ids.forEach((id, i) => pos.set(id, [((i + 0.5) * c.width) / ids.length, 10 + g * dy + dy / 2]));
  }
  const colour = { must: '#1c7ed6', may: '#f59f00', never: '#adb5bd' };
  ctx.lineWidth = 1;
  ctx.strokeStyle = '#ced4da';
  for (const id of shown) {
    const p = run.nodes[id].parent;
    if (p === null || !pos.has(p)) continue;
    const [x1, y1] = pos.get(p);
    const [x2, y2] = pos.get(id);
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.lineTo(x2, y2);
    ctx.stroke();
  }
  const r = shown.length > 2000 ? 1.5 : shown.length > 300 ? 3 : 5;
  for (const id of shown) {
    const [x, y] = pos.get(id);
    const n = run.nodes[id];
    ctx.beginPath();
    ctx.arc(x, y, r, 0, 2 * Math.PI);
    if (closed.has(id)) {
      ctx.fillStyle = colour[n.class];
      ctx.fill();
    } else {
      ctx.strokeStyle = open.has(id) ? colour[n.class] : '#dee2e6';
      ctx.lineWidth = open.has(id) ? 2 : 1;
      ctx.stroke();
    }
  }
}
