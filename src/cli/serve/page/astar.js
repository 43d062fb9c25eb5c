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
    goal: app.state.goal,
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
    ? `Step ${step} expanded node ${last.expand} (${run.nodes[last.expand].board.join(' ')}, `
      + `f = ${fmt(run.nodes[last.expand].f)}): ${last.children.map((c) => `${c.node} ${c.status}`).join(', ')}.`
    : 'Before the first step: the open list holds the start.';
  const counts = $('astar-counts');
  counts.replaceChildren();
  for (const t of [`open: ${open.length}`, `closed: ${closed.size}`, `C* = ${run.c_star}`]) {
    const span = document.createElement('span');
    span.textContent = t;
    counts.append(span);
  }
  counts.dataset.open = String(open.length);
  counts.dataset.closed = String(closed.size);
  const body = $('astar-open');
  body.replaceChildren();
  open.slice(0, SHOWN).forEach((id, i) => {
    const n = run.nodes[id];
    const tr = document.createElement('tr');
    tr.className = i === 0 ? `${n.class} next` : n.class;
    tr.dataset.node = String(id);
    for (const v of [id, n.board.join(' '), n.g, n.h, fmt(n.f), n.hstar, n.class]) {
      const td = document.createElement('td');
      td.textContent = String(v);
      tr.append(td);
    }
    if (i === 0) tr.title = 'expanded next';
    body.append(tr);
  });
  $('astar-more').textContent = open.length > SHOWN ? `and ${open.length - SHOWN} more` : '';
  drawTree(closed, new Set(open), last ? last.expand : null);
}

function fmt(f) {
  return Number.isInteger(f) ? String(f) : f.toFixed(1);
}

const COLOUR = { must: '#1c7ed6', may: '#f08c00', never: '#868e96' };

/**
 * Draws the nodes generated in the first `step` steps as a tree, root on top, one layer per g:
 * leaves take the next slot from the left in depth-first order and a parent sits over its
 * children, so no two edges cross.
 */
function drawTree(closed, open, lastExpanded) {
  const c = $('astar-tree');
  const ctx = c.getContext('2d');
  ctx.clearRect(0, 0, c.width, c.height);
  const kids = new Map();
  const shown = [0];
  for (let i = 0; i < step; i++) {
    const s = run.steps[i];
    kids.set(s.expand, s.children.map((ch) => ch.node));
    for (const ch of s.children) shown.push(ch.node);
  }
  const x = new Map();
  let slots = 0;
  const place = (id) => {
    const ch = kids.get(id) || [];
    if (!ch.length) {
      x.set(id, slots);
      slots += 1;
      return;
    }
    for (const k of ch) place(k);
    x.set(id, (x.get(ch[0]) + x.get(ch[ch.length - 1])) / 2);
  };
  // recursion as deep as the deepest node: at most a few hundred layers, even for weighted A*
  place(0);
  const depth = Math.max(1, ...shown.map((id) => run.nodes[id].g));
  const pad = 14;
  const labels = shown.length <= 40 && (c.width - 2 * pad) / Math.max(1, slots) >= 18;
  const dx = (c.width - 2 * pad) / Math.max(1, slots);
  const dy = (c.height - 2 * pad - (labels ? 14 : 0)) / depth;
  const at = (id) => [pad + (x.get(id) + 0.5) * dx, pad + run.nodes[id].g * dy];
  ctx.lineWidth = 1;
  ctx.strokeStyle = '#adb5bd';
  for (const [p, ch] of kids) {
    const [x1, y1] = at(p);
    for (const k of ch) {
      const [x2, y2] = at(k);
      ctx.beginPath();
      ctx.moveTo(x1, y1);
      ctx.lineTo(x2, y2);
      ctx.stroke();
    }
  }
  const r = Math.max(1.5, Math.min(7, dx / 2.5, dy / 3));
  ctx.font = '11px system-ui, sans-serif';
  ctx.textAlign = 'center';
  for (const id of shown) {
    const [px, py] = at(id);
    const n = run.nodes[id];
    ctx.beginPath();
    ctx.arc(px, py, r, 0, 2 * Math.PI);
    if (closed.has(id)) {
      ctx.fillStyle = COLOUR[n.class];
      ctx.fill();
    } else if (open.has(id)) {
      ctx.strokeStyle = COLOUR[n.class];
      ctx.lineWidth = 2.5;
      ctx.stroke();
    } else {
      ctx.strokeStyle = '#dee2e6';
      ctx.lineWidth = 1;
      ctx.stroke();
    }
    if (id === lastExpanded) {
      ctx.beginPath();
      ctx.arc(px, py, r + 3, 0, 2 * Math.PI);
      ctx.strokeStyle = '#000';
      ctx.lineWidth = 2;
      ctx.stroke();
    }
    if (labels) {
      ctx.fillStyle = '#222';
      ctx.fillText(String(id), px, py + r + (id === lastExpanded ? 15 : 11));
    }
  }
}
