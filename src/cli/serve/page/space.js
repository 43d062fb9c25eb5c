// The state space at a glance: the number of states at each depth (figure 3 of the 1987 report)
// with the board shown marked, and a heuristic's heat map of h against h* over every state.

import { call } from './api.js';

let app;
let $;
let stats = null;
let map = null;
const CELL = 16;

export function init(a) {
  app = a;
  $ = a.$;
  app.onPosition(() => {
    if (!$('tab-space').hidden) drawStats();
  });
  document.querySelector('nav button[data-tab="space"]').addEventListener('click', loadStats);
  $('heatmap-draw').addEventListener('click', drawHeatmap);
  $('heatmap').addEventListener('click', pick);
  $('example-play').addEventListener('click', async () => {
    const b = $('example-play').dataset.board;
    if (b) {
      const { begin } = await import('./play.js');
      if (await app.show(b, { shape: stats.shape, goal: app.goal })) {
        begin();
        document.querySelector('nav button[data-tab="play"]').click();
      }
    }
  });
}

async function loadStats() {
  const s = await app.guard(() => call('/api/stats', { shape: app.shape, goal: app.goal }));
  if (!s) {
    stats = null;
    return;
  }
  stats = s;
  $('stats-summary').textContent = `${s.shape}, goal ${s.goal}: ${s.states.toLocaleString('en-US')} states, `
    + `farthest ${s.max_depth} moves, mean ${s.mean.toFixed(2)}.`;
  drawStats();
}

function drawStats() {
  if (!stats) return;
  const c = $('histogram');
  const ctx = c.getContext('2d');
  const w = c.width;
  const h = c.height;
  ctx.clearRect(0, 0, w, h);
  const n = stats.histogram.length;
  const max = Math.max(...stats.histogram);
  const bw = (w - 40) / n;
  const here = app.pos && app.pos.shape === stats.shape ? app.pos.distance : null;
  ctx.font = '12px sans-serif';
  stats.histogram.forEach((count, d) => {
    const bh = ((h - 30) * count) / max;
    ctx.fillStyle = d === here ? '#d9480f' : '#1c7ed6';
    ctx.fillRect(30 + d * bw, h - 20 - bh, Math.max(1, bw - 2), bh);
    if (n <= 40 || d % 5 === 0) {
      ctx.fillStyle = '#222';
      ctx.fillText(String(d), 30 + d * bw, h - 5);
    }
  });
  $('stats-here').textContent = here === null || here === undefined
    ? ''
    : `The board shown is ${here} moves from the goal (orange): ${stats.histogram[here].toLocaleString('en-US')} states share its depth.`;
}

async function drawHeatmap() {
  if (!stats) await loadStats();
  if (!stats) return;
  const heuristic = $('heatmap-heuristic').value;
  const t0 = performance.now();
  const m = await app.guard(() => call('/api/heatmap', { heuristic, shape: stats.shape, goal: app.goal }));
  if (!m) return;
  map = m;
  const rows = m.counts.length;
  const cols = Math.max(1, ...m.counts.map((r) => r.length));
  const c = $('heatmap');
  c.width = 40 + cols * CELL;
  c.height = 30 + rows * CELL;
  const ctx = c.getContext('2d');
  ctx.clearRect(0, 0, c.width, c.height);
  const max = Math.max(...m.counts.flat());
  const logMax = Math.log(max + 1);
  ctx.font = '10px sans-serif';
  for (let d = 0; d < rows; d++) {
    m.counts[d].forEach((n, h) => {
      if (!n) return;
      const t = Math.log(n + 1) / logMax;
      const x = 40 + h * CELL;
      const y = 20 + d * CELL;
      ctx.fillStyle = `hsl(${220 - 200 * t}, 80%, ${90 - 50 * t}%)`;
      ctx.fillRect(x, y, CELL - 1, CELL - 1);
      if (h > d) {
        ctx.strokeStyle = '#c92a2a';
        ctx.lineWidth = 2;
        ctx.strokeRect(x + 1, y + 1, CELL - 3, CELL - 3);
      }
    });
    if (d % 5 === 0) {
      ctx.fillStyle = '#222';
      ctx.fillText(String(d), 5, 20 + d * CELL + 11);
    }
  }
  for (let h = 0; h < cols; h += 5) {
    ctx.fillStyle = '#222';
    ctx.fillText(String(h), 40 + h * CELL, 14);
  }
  // the diagonal h = h*: exact estimates
  ctx.strokeStyle = '#000';
  ctx.lineWidth = 1;
  for (let d = 0; d < Math.min(rows, cols); d++) ctx.strokeRect(40 + d * CELL - 0.5, 20 + d * CELL - 0.5, CELL, CELL);
  const ms = performance.now() - t0;
  $('heatmap-summary').textContent = `${m.label}: exact on ${(100 * m.exact_share).toFixed(1)}% of the `
    + `${m.states.toLocaleString('en-US')} states, mean error h* - h = ${m.mean_error.toFixed(2)}, `
    + `overestimates on ${m.overestimates.toLocaleString('en-US')} states. Rows: h* (down); columns: h (across).`;
  $('heatmap-time').textContent = `drawn in ${Math.round(ms)} ms`;
  $('heatmap-time').dataset.ms = String(ms);
}

async function pick(e) {
  if (!map) return;
  const r = $('heatmap').getBoundingClientRect();
  const h = Math.floor((e.clientX - r.left - 40) / CELL);
  const d = Math.floor((e.clientY - r.top - 20) / CELL);
  if (d < 0 || h < 0 || d >= map.counts.length || !(map.counts[d][h] > 0)) return;
  const ex = await app.guard(() => call('/api/heatmap/example',
    { heuristic: map.heuristic, exact: d, h, shape: stats.shape, goal: app.goal }));
  if (!ex) return;
  $('example-text').textContent = `h* = ${d}, ${map.heuristic} = ${h} (${map.counts[d][h].toLocaleString('en-US')} states), for example: ${ex.text}`;
  $('example-play').hidden = false;
  $('example-play').dataset.board = ex.text;
}
