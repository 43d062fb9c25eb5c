// The page's entry: shared state (shape, goal, the board shown and its position), tabs, the
// message line, the long-job line, and the shareable URL. Each panel is a module with `init(app)`.

import { abortAll, call, stream } from './api.js';
import * as play from './play.js';
import * as inspect from './inspect.js';
import * as space from './space.js';
import * as astar from './astar.js';
import * as compare from './compare.js';
import * as textbook from './textbook.js';

const $ = (id) => document.getElementById(id);

const listeners = [];

export const app = {
  info: null,
  shape: '3x3',
  goal: 'blank-last',
  /** The position shown (the answer of /api/position), or null. */
  pos: null,
  /** The number of long jobs this page has running. */
  busy: 0,

  $,

  /** Whether `shape` has a perfect table here (so every lookup answers at once). */
  exact(shape) {
    const s = app.info && app.info.shapes.find((x) => x.shape === shape);
    return Boolean(s && s.exact);
  },

  /** Shows `text` on the message line (`kind`: 'error' or 'info'); empty clears it. */
  say(text, kind = 'info') {
    const m = $('message');
    m.textContent = text;
    m.className = text ? kind : '';
  },

  /** Runs `work`, showing its error on the message line. */
  async guard(work) {
    try {
      return await work();
    } catch (e) {
      app.say(e.message, 'error');
      return undefined;
    }
  },

  /** Calls `fn(pos)` each time the position shown changes. */
  onPosition(fn) {
    listeners.push(fn);
  },

  /** Asks the server about `board` (text or cells) and shows it; true when it could. */
  async show(board, { shape, goal } = {}) {
    const body = { board, goal: goal || app.goal };
    if (shape !== null) body.shape = shape || app.shape;
    const pos = await app.guard(() => call('/api/position', body));
    if (!pos) return false;
    app.say('');
    app.pos = pos;
    app.shape = pos.shape;
    if (goal) app.goal = goal;
    $('shape').value = pos.shape;
    pickGoal(app.goal);
    const url = new URL(window.location.href);
    url.search = '';
    url.searchParams.set('board', pos.text);
    url.searchParams.set('shape', pos.shape);
    url.searchParams.set('goal', app.goal);
    history.replaceState(null, '', url);
    for (const fn of listeners) fn(pos);
    return true;
  },

  /** Starts a long job with its progress on the job line; resolves when it ends. */
  job(kind, path, body, onEvent) {
    const line = $('job');
    const text = $('job-text');
    line.hidden = false;
    text.textContent = `${kind}: starting`;
    app.busy += 1;
    let failed = null;
    const job = stream(path, body, (name, data) => {
      if (name === 'progress') {
        const nodes = data.generated ? `${data.generated.toLocaleString('en-US')} nodes, ` : '';
        text.textContent = `${kind}: ${nodes}${data.seconds.toFixed(1)} s`;
      } else if (name === 'error') {
        failed = data.error;
        app.say(data.error, 'error');
      }
      onEvent(name, data);
    });
    job.done
      .then((aborted) => {
        text.textContent = aborted ? `${kind}: cancelled` : failed ? `${kind}: failed: ${failed}` : `${kind}: done`;
      })
      .catch((e) => {
        app.say(e.message, 'error');
        text.textContent = `${kind}: refused (${e.message})`;
      })
      .finally(() => {
        app.busy -= 1;
        setTimeout(() => { if (!app.busy) line.hidden = true; }, 4000);
      });
    return job;
  },
};

/** Shows `goal` in the goal picker, adding it when it is an arrangement rather than a name. */
function pickGoal(goal) {
  const select = $('goal');
  if (![...select.options].some((o) => o.value === goal)) {
    const o = document.createElement('option');
    o.value = goal;
    o.textContent = goal;
    select.append(o);
  }
  select.value = goal;
}

function showTab(name) {
  for (const b of document.querySelectorAll('nav button')) {
    const on = b.dataset.tab === name;
    b.setAttribute('aria-selected', on ? 'true' : 'false');
    $(`tab-${b.dataset.tab}`).hidden = !on;
  }
}

async function start() {
  for (const b of document.querySelectorAll('nav button')) {
    b.addEventListener('click', () => showTab(b.dataset.tab));
  }
  $('job-cancel').addEventListener('click', abortAll);
  app.info = await app.guard(() => call('/api/info'));
  const shapeSelect = $('shape');
  for (const s of app.info ? app.info.shapes : [{ shape: '3x3', exact: true }]) {
    const o = document.createElement('option');
    o.value = s.shape;
    o.textContent = `${s.shape}${s.exact ? '' : ' (search)'}`;
    o.title = s.source || '';
    shapeSelect.append(o);
  }
  const goalSelect = $('goal');
  for (const g of app.info ? app.info.goals : ['blank-last']) {
    const o = document.createElement('option');
    o.value = g;
    o.textContent = g;
    goalSelect.append(o);
  }
  for (const m of [play, inspect, space, astar, compare, textbook]) m.init(app);
  shapeSelect.addEventListener('change', () => {
    app.shape = shapeSelect.value;
    play.reset(app.shape);
  });
  goalSelect.addEventListener('change', () => {
    app.goal = goalSelect.value;
    play.reset(app.shape);
  });
  const params = new URLSearchParams(window.location.search);
  if (params.get('goal')) app.goal = params.get('goal');
  if (params.get('shape')) app.shape = params.get('shape');
  if (params.get('board')) {
    const ok = await app.show(params.get('board'), { shape: params.get('shape') || null, goal: app.goal });
    if (ok) {
      play.begin();
      return;
    }
    // keep saying what was wrong with the link's board while a new one is drawn
    const said = $('message').textContent;
    await play.reset(app.shape);
    app.say(`the link's board: ${said}`, 'error');
    return;
  }
  play.reset(app.shape);
}

start();
