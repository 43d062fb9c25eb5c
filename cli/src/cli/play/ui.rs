//! Drawing `table play`: the start screen, the board with its status lines, the win screen, and a
//! notice when the window is too small. Reads the app, changes nothing but where the board was
//! drawn (for mouse clicks).

use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;
use slidetable::{Board, Dir};

use slidetable::search::effective_branching_factor;

use super::app::{App, Field, Screen, StartKind, ALGORITHMS, GOALS};
use super::thousands;

/// The smallest window the screens fit in.
pub const MIN_WIDTH: u16 = 60;
pub const MIN_HEIGHT: u16 = 20;

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &mut App) {
    let area = frame.area();
    let (need_w, need_h) = needed(app);
    if area.width < need_w || area.height < need_h {
        app.board_area = None;
        let text = format!(
            "The window is too small: {}x{}; table play needs {need_w}x{need_h}.\nMake it larger (or press q to quit).",
            area.width, area.height
        );
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    }
    match app.screen {
        Screen::Start => draw_menu(frame, app, area),
        Screen::Play => draw_play(frame, app, area),
        Screen::Solve => draw_solve(frame, app, area),
    }
}

/// The window size the current screen needs.
fn needed(app: &App) -> (u16, u16) {
    match (&app.screen, &app.game) {
        (Screen::Play | Screen::Solve, Some(g)) => {
            let shape = g.board().shape();
            let (w, h) = cell_size(shape.cells());
            (MIN_WIDTH.max(w * shape.cols() as u16 + 4), (h * shape.rows() as u16 + 10).max(MIN_HEIGHT))
        }
        _ => (MIN_WIDTH, MIN_HEIGHT),
    }
}

/// A tile's width and height in characters.
fn cell_size(cells: usize) -> (u16, u16) {
    if cells > 16 {
        (5, 3)
    } else {
        (6, 3)
    }
}

fn draw_menu(frame: &mut Frame, app: &App, area: Rect) {
    let block = Block::default().borders(Borders::ALL).title(" table play ");
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let shape = app.menu_shape();
    let highlight = |field: Field| {
        if app.menu.field == field {
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default()
        }
    };
    let presets = app.menu_presets();
    let value = match app.menu.kind {
        StartKind::Preset => match presets.get(app.menu.preset) {
            Some(p) => format!("{}  ({})", p.name, p.board),
            None => format!("(no preset for {shape})"),
        },
        StartKind::Scramble => format!("{} moves from the goal", app.menu.distance),
        StartKind::Typed => format!("{}_", app.menu.typed),
    };
    let kind = match app.menu.kind {
        StartKind::Preset => "a preset",
        StartKind::Scramble => "a scramble",
        StartKind::Typed => "a board typed in",
    };
    let mut lines = vec![
        Line::from("Slide the tiles until the board is the goal. After every move you see the exact"),
        Line::from("distance left and whether the move was optimal."),
        Line::from(""),
        Line::from("Up/Down (Tab) choose a line, Left/Right change it, Enter starts, q quits."),
        Line::from(""),
        Line::from(vec![Span::raw("  board  "), Span::styled(format!("< {shape} >"), highlight(Field::Board))]),
        Line::from(vec![
            Span::raw("  goal   "),
            Span::styled(format!("< {} >", GOALS[app.menu.goal]), highlight(Field::Goal)),
        ]),
        Line::from(vec![Span::raw("  start  "), Span::styled(format!("< {kind} >"), highlight(Field::Start))]),
        Line::from(vec![Span::raw("         "), Span::styled(value, highlight(Field::Value))]),
        Line::from(""),
    ];
    match app.menu.kind {
        StartKind::Typed if !app.menu.typed.is_empty() => lines.push(match app.typed_board() {
            Ok(_) => {
                Line::styled("ok: a board that can reach the goal; Enter starts", Style::default().fg(Color::Green))
            }
            Err(e) => Line::styled(e, Style::default().fg(Color::Red)),
        }),
        StartKind::Typed => lines.push(Line::from("type the tiles row by row, 0 or _ for the blank")),
        StartKind::Scramble if shape.cells() > 12 => {
            lines.push(Line::from("no table this size: a random walk of that many moves (type digits to set)"));
        }
        StartKind::Scramble => lines.push(Line::from("drawn uniformly from the boards at exactly that distance")),
        StartKind::Preset => {}
    }
    if !app.message.is_empty() {
        lines.push(Line::styled(app.message.clone(), Style::default().fg(Color::Red)));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
}

fn draw_play(frame: &mut Frame, app: &mut App, area: Rect) {
    let Some(game) = &app.game else { return };
    let board = game.board().clone();
    let shape = board.shape();
    let (_, h) = cell_size(shape.cells());
    let title = match &app.oracle {
        Some(o) if !o.is_exact() => format!(" table play: {shape}, solutions from {} ", o.describe()),
        Some(o) => format!(" table play: {shape}, distances from {} ", o.describe()),
        None => " table play ".to_string(),
    };
    let block = Block::default().borders(Borders::ALL).title(title);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let [status, verdict, _, board_rows, _, keys, message] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(h * shape.rows() as u16),
        Constraint::Length(1),
        Constraint::Length(3),
        Constraint::Min(1),
    ])
    .areas(inner);
    let thinking = if app.thinking() { "  (working it out...)" } else { "" };
    frame.render_widget(Paragraph::new(format!("{}{thinking}", app.status())), status);
    frame.render_widget(Paragraph::new(app.verdict_line()), verdict);

    let hinted = hinted_tiles(&board, app.hints.as_deref());
    let goal = game.goal().clone();
    app.board_area = Some(draw_board(frame, board_rows, &board, &goal, &hinted, None));

    let hint_text = match (&app.hints, app.hints_pending) {
        (_, true) if app.bound_text().is_some() => "h: finding a solution...".to_string(),
        (_, true) => "h: finding the optimal moves...".to_string(),
        (Some(h), _) if h.is_empty() => "no move brings the board closer: it is the goal".to_string(),
        (Some(_), _) if app.bound_text().is_some() => {
            let tiles: Vec<String> = hinted.iter().map(u16::to_string).collect();
            let proof = app.bound_text().unwrap_or_default();
            format!("hint: slide tile {}, the first move of a solution{proof}", tiles.join(" or "))
        }
        (Some(h), _) => {
            let tiles: Vec<String> = hinted.iter().map(u16::to_string).collect();
            if h.len() == 1 {
                format!("hint: slide tile {} (the only optimal move)", tiles[0])
            } else {
                format!("hint: slide tile {} ({} optimal moves)", tiles.join(" or "), h.len())
            }
        }
        (None, _) => format!(
            "arrows/WASD{} move the {} (c switches); {} hints",
            if app.vi_keys { "/hjkl" } else { "" },
            app.convention_word(),
            if app.vi_keys { "?" } else { "h" }
        ),
    };
    let key_lines = vec![
        Line::from(hint_text),
        Line::from("u undo  r redo  x solve and watch  n new game  q quit"),
        Line::from("a click on a tile in the blank's row or column slides it; v vi keys"),
    ];
    frame.render_widget(Paragraph::new(key_lines).wrap(Wrap { trim: true }), keys);
    if !app.message.is_empty() {
        frame.render_widget(Paragraph::new(app.message.clone()).wrap(Wrap { trim: true }), message);
    }
    if game.is_won() && !game.moves().is_empty() {
        draw_won(frame, app, area);
    }
}

/// Draws `board` centred in `rows`: tiles in their goal cell in green, `hinted` tiles marked,
/// and with `sliding` (the blank's move under way and how far along) the tile that moves drawn
/// between its two cells. Returns where the board is and the size of a cell.
fn draw_board(
    frame: &mut Frame,
    rows: Rect,
    board: &Board,
    goal: &Board,
    hinted: &[u16],
    sliding: Option<(Dir, f64)>,
) -> (Rect, u16, u16) {
    let shape = board.shape();
    let (w, h) = cell_size(shape.cells());
    let board_w = w * shape.cols() as u16;
    let x = rows.x + rows.width.saturating_sub(board_w) / 2;
    let area = Rect::new(x, rows.y, board_w.min(rows.width), (h * shape.rows() as u16).min(rows.height));
    // the tile that slides, from its cell toward the blank's
    let moving = sliding.and_then(|(dir, phase)| {
        let from = dir.step(shape, board.blank())?;
        Some((board.cells()[from], from, board.blank(), phase))
    });
    let at = |cell: usize| {
        (
            area.x as f64 + (cell % shape.cols()) as f64 * w as f64,
            area.y as f64 + (cell / shape.cols()) as f64 * h as f64,
        )
    };
    for cell in 0..shape.cells() {
        let tile = board.cells()[cell];
        if tile == 0 {
            continue;
        }
        let (mut x, mut y) = at(cell);
        if let Some((t, from, to, phase)) = moving {
            if t == tile {
                let ((x0, y0), (x1, y1)) = (at(from), at(to));
                x = x0 + (x1 - x0) * phase;
                y = y0 + (y1 - y0) * phase;
            }
        }
        let rect = Rect::new(x.round() as u16, y.round() as u16, w, h).intersection(area);
        let mut style = Style::default();
        if goal.cells()[cell] == tile {
            style = style.fg(Color::Green);
        }
        if hinted.contains(&tile) {
            style = style.bg(Color::Yellow).fg(Color::Black).add_modifier(Modifier::BOLD);
        }
        let label = if hinted.contains(&tile) { format!("*{tile}*") } else { tile.to_string() };
        let block = Block::default().borders(Borders::ALL).style(style);
        frame.render_widget(Clear, rect);
        frame.render_widget(Paragraph::new(label).alignment(Alignment::Center).block(block), rect);
    }
    (area, w, h)
}

fn draw_solve(frame: &mut Frame, app: &mut App, area: Rect) {
    let Some(game) = &app.game else { return };
    let shape = game.board().shape();
    let (_, h) = cell_size(shape.cells());
    let block = Block::default().borders(Borders::ALL).title(format!(" table play: solve and watch ({shape}) "));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let [top, _, board_rows, _, keys] = Layout::vertical([
        Constraint::Length(5),
        Constraint::Length(1),
        Constraint::Length(h * shape.rows() as u16),
        Constraint::Length(1),
        Constraint::Min(1),
    ])
    .areas(inner);
    let goal = game.goal().clone();
    let solver = &app.solver;
    let (lines, key_help, board, sliding): (Vec<Line>, &str, Board, Option<(Dir, f64)>) = if let Some(running) =
        &solver.running
    {
        let lines = vec![
            Line::from(format!(
                "searching: {} with {}",
                algorithm_label(ALGORITHMS[solver.algorithm]),
                app.guide_name(app.guides()[solver.guide])
            )),
            Line::from(format!("generated  {}", thousands(running.watch.generated()))),
            Line::from(format!("time       {:.1} s", running.began.elapsed().as_secs_f64())),
        ];
        (lines, "Esc cancels", game.board().clone(), None)
    } else if let (Some(r), Some((board, sliding))) = (&solver.result, app.animation()) {
        let st = &r.found.stats;
        let n = r.found.moves.len();
        let optimal = match game.distance() {
            Some(d) if d as usize == n => "optimal".to_string(),
            Some(d) => format!("{} more than the optimum {d}", n - d as usize),
            None => "optimum not known".to_string(),
        };
        let b =
            effective_branching_factor(st.generated as f64, n as u32).map_or("-".to_string(), |b| format!("{b:.3}"));
        let lines = vec![
            Line::from(format!("{} with {}: {n} moves ({optimal})", algorithm_label(r.algorithm), r.guide)),
            Line::from(format!(
                "expanded {}  generated {}  peak open {}  b* {b}",
                thousands(st.expanded),
                thousands(st.generated),
                thousands(st.peak_open)
            )),
            Line::from(format!(
                "time {:.2} ms  memory {:.1} KiB",
                st.elapsed.as_secs_f64() * 1e3,
                st.peak_bytes as f64 / 1024.0
            )),
            Line::from(format!(
                "move {}/{n}  {}  {} ms a move",
                solver.step,
                if solver.playing { "playing" } else { "paused" },
                solver.speed_ms
            )),
        ];
        (lines, "space play/pause  Left/Right step  +/- speed  Home restart  s search again  Esc back", board, sliding)
    } else {
        let choice = |line: usize, text: String| {
            let style =
                if solver.line == line { Style::default().add_modifier(Modifier::REVERSED) } else { Style::default() };
            Span::styled(format!("< {text} >"), style)
        };
        let lines = vec![
            Line::from("Solve the position now by search, then watch the solution."),
            Line::from(vec![Span::raw("algorithm  "), choice(0, algorithm_label(ALGORITHMS[solver.algorithm]))]),
            Line::from(vec![Span::raw("heuristic  "), choice(1, app.guide_name(app.guides()[solver.guide]))]),
        ];
        (lines, "Up/Down choose  Left/Right change  Enter solves  Esc back", game.board().clone(), None)
    };
    frame.render_widget(Paragraph::new(lines), top);
    app.board_area = None;
    draw_board(frame, board_rows, &board, &goal, &[], sliding);
    let mut help = vec![Line::from(key_help)];
    if !app.message.is_empty() {
        help.push(Line::styled(app.message.clone(), Style::default().fg(Color::Red)));
    }
    frame.render_widget(Paragraph::new(help).wrap(Wrap { trim: true }), keys);
}

/// An algorithm as the solve screen names it: `within 1.5`, `weighted`, `astar`.
fn algorithm_label(a: slidetable::search::Algorithm) -> String {
    match a {
        slidetable::search::Algorithm::Within(w) => format!("within {w}"),
        slidetable::search::Algorithm::Beam(w) => format!("beam of {w}"),
        other => other.name().to_string(),
    }
}

/// The tiles that slide when the blank makes one of `hints`.
fn hinted_tiles(board: &Board, hints: Option<&[Dir]>) -> Vec<u16> {
    let shape = board.shape();
    let mut tiles: Vec<u16> = hints
        .unwrap_or(&[])
        .iter()
        .filter_map(|&d| d.step(shape, board.blank()).map(|cell| board.cells()[cell]))
        .collect();
    tiles.sort_unstable();
    tiles
}

fn draw_won(frame: &mut Frame, app: &App, area: Rect) {
    let Some(game) = &app.game else { return };
    let used = game.moves().len();
    let verdict = match game.optimal() {
        Some(best) if best as usize == used => format!("Solved in {used} moves: optimal!"),
        Some(best) => {
            format!("Solved in {used} moves; the fewest possible was {best} ({} more).", used - best as usize)
        }
        None => format!("Solved in {used} moves."),
    };
    let lines =
        vec![Line::from(verdict), Line::from(""), Line::from("u takes back a move, n starts a new game, q quits.")];
    let w = 56.min(area.width);
    let rect = Rect::new(area.x + (area.width - w) / 2, area.y + area.height / 2 - 3, w, 5);
    frame.render_widget(Clear, rect);
    let block = Block::default().borders(Borders::ALL).title(" solved ");
    frame.render_widget(Paragraph::new(lines).alignment(Alignment::Center).block(block), rect);
}
