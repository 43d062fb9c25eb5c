//! A* and IDA* step by step (`trace.rs`) driven without a socket: the runs count as the
//! comparison job does, replay (forward and back) to the open lists of a plain A* written here,
//! stay small, and bad requests get a 400 that says why.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use slidetable::heuristic::{Estimator, Heuristic};
use slidetable::{Board, Goal, Shape};
use tower::ServiceExt;

use super::{router, Config, Server};

// ---- copied from tests.rs ------------------------------------------------------------------

const HOST: &str = "127.0.0.1:4000";

fn server() -> Arc<Server> {
    let dir = std::env::temp_dir().join(format!("slidetable-serve-trace-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    Arc::new(Server::new(HOST.parse().expect("an address"), Config::new(dir)))
}

struct Answer {
    status: StatusCode,
    body: Vec<u8>,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }
}

async fn api(server: &Arc<Server>, path: &str, body: Value) -> Answer {
    let req = Request::builder()
        .method(Method::POST)
        .uri(path)
        .header(header::HOST, HOST)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .expect("a request");
    let res = router(Arc::clone(server)).oneshot(req).await.expect("an answer");
    let status = res.status();
    let body = res.into_body().collect().await.expect("a body").to_bytes().to_vec();
    Answer { status, body }
}

/// The `run` events of a finished comparison.
fn runs(body: &[u8]) -> Vec<Value> {
    let text = String::from_utf8_lossy(body);
    let mut out = Vec::new();
    for block in text.split("\n\n") {
        let mut name = "";
        let mut data = String::new();
        for line in block.lines() {
            if let Some(n) = line.strip_prefix("event:") {
                name = n.trim();
            } else if let Some(d) = line.strip_prefix("data:") {
                data.push_str(d.trim());
            }
        }
        if name == "run" {
            out.push(serde_json::from_str(&data).expect("JSON data"));
        }
    }
    out
}

// ---- reading a run as the page does ---------------------------------------------------------

fn ok(a: &Answer) -> Value {
    assert_eq!(a.status, StatusCode::OK, "{}", String::from_utf8_lossy(&a.body));
    a.json()
}

fn nums(v: &Value) -> Vec<u64> {
    v.as_array().expect("an array").iter().map(|x| x.as_u64().expect("a number")).collect()
}

fn letters(v: &Value) -> Vec<char> {
    v.as_str().expect("a string").chars().collect()
}

/// Every node's board, rebuilt from the start and the moves (a node's parent comes before it).
fn rebuild(run: &Value) -> Vec<Vec<u16>> {
    let cols = run["cols"].as_u64().expect("cols") as usize;
    let start: Vec<u16> = nums(&run["start"]).into_iter().map(|t| t as u16).collect();
    let parents = run["nodes"]["parent"].as_array().expect("parents");
    let moves = letters(&run["nodes"]["move"]);
    assert_eq!((parents[0].clone(), moves[0]), (Value::Null, '-'));
    let mut boards = vec![start];
    for (id, m) in moves.iter().enumerate().skip(1) {
        let p = parents[id].as_u64().expect("a parent") as usize;
        assert!(p < id);
        let mut b = boards[p].clone();
        let blank = b.iter().position(|&t| t == 0).expect("a blank");
        let to = match m {
            'U' => blank - cols,
            'D' => blank + cols,
            'L' => blank - 1,
            'R' => blank + 1,
            other => panic!("move {other}"),
        };
        b.swap(blank, to);
        boards.push(b);
    }
    boards
}

fn parse(cells: &[u16]) -> Board {
    Board::new(Shape::EIGHT, cells.to_vec()).expect("a board")
}

fn eight_table() -> slidetable::Table<Vec<u8>> {
    slidetable::build(&Goal::BlankLast.board(Shape::EIGHT).expect("goal"), |_| {}).expect("table")
}

/// Boards the server scrambles at these depths, `count` each.
async fn scrambles(s: &Arc<Server>, depths: &[u32], count: u64) -> Vec<Value> {
    let mut out = Vec::new();
    for &depth in depths {
        for seed in 0..count {
            out.push(
                ok(&api(s, "/api/scramble", json!({"depth": depth, "seed": seed * 31 + 7})).await)["board"].clone(),
            );
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn astar_and_idastar_count_as_the_comparison_does() {
    let s = server();
    let boards = scrambles(&s, &[6, 12, 18, 22], 5).await;
    let astar = [
        ("hamming", 1.0, "astar"),
        ("manhattan", 1.0, "astar"),
        ("zero", 1.0, "bfs"),
        ("nilsson", 1.0, "astar"),
        ("pdb", 1.0, "astar"),
        ("manhattan", 2.0, "weighted"),
        ("linear-conflict", 1.5, "weighted"),
    ];
    let ida = ["hamming", "manhattan", "linear-conflict", "nilsson"];
    let mut checked = 0;
    for board in &boards {
        let mut list = Vec::new();
        for (h, w, algorithm) in astar {
            let mut r = json!({"algorithm": algorithm});
            if algorithm != "bfs" {
                r["heuristic"] = json!(h);
            }
            if algorithm == "weighted" {
                r["weight"] = json!(w);
            }
            list.push(r);
        }
        for h in ida {
            list.push(json!({"algorithm": "idastar", "heuristic": h}));
        }
        let a = api(&s, "/api/jobs/compare", json!({"board": board, "runs": list, "max_generated": 2_000_000})).await;
        let compared = runs(&a.body);
        assert_eq!(compared.len(), list.len(), "{}", String::from_utf8_lossy(&a.body));
        for (i, (h, w, algorithm)) in astar.into_iter().enumerate() {
            let body = json!({"board": board, "heuristic": h, "weight": w, "max_expansions": 20_000});
            let run = ok(&api(&s, "/api/astar", body).await);
            let what = format!("{board} {h} w={w}: {}", compared[i]);
            assert_eq!(run["algorithm"], algorithm, "{what}");
            if run["capped"] == true {
                assert!(compared[i]["expanded"].as_u64() > Some(20_000), "{what}");
                continue; // breadth-first on the deeper boards
            }
            checked += 1;
            assert_eq!(run["expansions"], compared[i]["expanded"], "{what}");
            assert_eq!(run["generated"], compared[i]["generated"], "{what}");
            assert_eq!(run["solution"]["length"], compared[i]["length"], "{what}");
        }
        for (i, h) in ida.into_iter().enumerate() {
            let c = &compared[astar.len() + i];
            let run =
                ok(&api(&s, "/api/idastar", json!({"board": board, "heuristic": h, "max_expansions": 20_000})).await);
            if run["capped"] == true {
                assert!(c["expanded"].as_u64() > Some(20_000), "{board} {h}: {c}");
                continue; // hamming on the deeper boards
            }
            checked += 1;
            assert_eq!((&run["expansions"], &run["generated"]), (&c["expanded"], &c["generated"]), "{board} {h}: {c}");
            assert_eq!(run["solution"]["length"], c["length"]);
        }
    }
    // all but breadth-first and IDA* with misplaced tiles on the deeper boards
    assert!(checked >= 200, "{checked} runs compared");
}

/// The boards on an open list, with their `g`.
type OpenStates = BTreeSet<(Vec<u16>, u32)>;

/// A plain A* by the rules of docs/serve-api.md: the open list a vector searched for its least
/// entry, the closed set a map. Returns the open states (board, g) before each step and the
/// board each step expands.
fn plain_astar(start: &[u16], goal: &[u16], h: &dyn Fn(&[u16]) -> u32, run: &Value) -> Vec<(OpenStates, Vec<u16>)> {
    let weight = run["weight"].as_f64().expect("weight");
    let algorithm = run["algorithm"].as_str().expect("algorithm");
    let key = |g: u32, h: u32| match algorithm {
        "bfs" => g as u64,
        "astar" => (g + h) as u64,
        _ => g as u64 * 1000 + (weight * 1000.0).round() as u64 * h as u64,
    };
    let last_generated = run["ties"] == "last-generated";
    struct Open {
        board: Vec<u16>,
        g: u32,
        h: u32,
        /// the move that made it (the blank's), as a cell offset
        from: Option<usize>,
        made: usize,
        first: usize,
    }
    let mut open = vec![Open { board: start.to_vec(), g: 0, h: h(start), from: None, made: 0, first: 0 }];
    let mut closed: HashMap<Vec<u16>, (u32, usize)> = HashMap::new();
    let mut made = 1;
    let mut out = Vec::new();
    let steps = run["expansions"].as_u64().expect("expansions") as usize;
    while out.len() < steps {
        let best = (0..open.len())
            .min_by_key(|&i| {
                let o = &open[i];
                let tie = if last_generated { usize::MAX - o.made } else { o.first };
                (key(o.g, o.h), u32::MAX - o.g, tie)
            })
            .expect("an open node");
        let states = open.iter().map(|o| (o.board.clone(), o.g)).collect();
        let node = open.swap_remove(best);
        assert_ne!(node.board, goal, "the goal is not expanded");
        out.push((states, node.board.clone()));
        closed.insert(node.board.clone(), (node.g, node.first));
        let blank = node.board.iter().position(|&t| t == 0).expect("a blank");
        let moves = [
            blank.checked_sub(3),
            (blank + 3 < 9).then_some(blank + 3),
            (blank % 3 != 0).then(|| blank - 1),
            (blank % 3 != 2).then_some(blank + 1),
        ];
        for to in moves.into_iter().flatten() {
            if node.from == Some(to) {
                continue; // back to the parent
            }
            let mut b = node.board.clone();
            b.swap(blank, to);
            let g = node.g + 1;
            made += 1;
            if let Some(i) = open.iter().position(|o| o.board == b) {
                if open[i].g > g {
                    let first = open[i].first;
                    open[i] = Open { board: b, g, h: open[i].h, from: Some(blank), made, first };
                }
            } else if let Some(&(cg, first)) = closed.get(&b) {
                if cg > g {
                    closed.remove(&b);
                    let hb = h(&b);
                    open.push(Open { board: b, g, h: hb, from: Some(blank), made, first });
                }
            } else {
                let hb = h(&b);
                open.push(Open { board: b, g, h: hb, from: Some(blank), made, first: made });
            }
        }
    }
    out
}

/// The open list and closed set of a run, stepped forward and back as docs/serve-api.md says.
struct Replay {
    expand: Vec<usize>,
    end: Vec<usize>,
    status: Vec<char>,
    replaced: HashMap<usize, usize>,
    open: BTreeSet<usize>,
    closed: BTreeSet<usize>,
}

impl Replay {
    fn new(run: &Value) -> Replay {
        let replaced = nums(&run["replaced"]["child"])
            .into_iter()
            .zip(nums(&run["replaced"]["node"]))
            .map(|(c, n)| (c as usize, n as usize))
            .collect();
        Replay {
            expand: nums(&run["steps"]["expand"]).into_iter().map(|x| x as usize).collect(),
            end: nums(&run["steps"]["end"]).into_iter().map(|x| x as usize).collect(),
            status: letters(&run["nodes"]["status"]),
            replaced,
            open: BTreeSet::from([0]),
            closed: BTreeSet::new(),
        }
    }

    fn children(&self, k: usize) -> std::ops::Range<usize> {
        (if k == 0 { 1 } else { self.end[k - 1] })..self.end[k]
    }

    fn forward(&mut self, k: usize) {
        let e = self.expand[k];
        assert!(self.open.remove(&e), "step {k} expands a node not on the open list");
        self.closed.insert(e);
        for c in self.children(k) {
            match self.status[c] {
                'n' => {}
                'b' => assert!(self.open.remove(&self.replaced[&c])),
                'r' => assert!(self.closed.remove(&self.replaced[&c])),
                'w' | 'c' => continue,
                other => panic!("status {other}"),
            }
            self.open.insert(c);
        }
    }

    fn back(&mut self, k: usize) {
        for c in self.children(k).rev() {
            match self.status[c] {
                'n' => {}
                'b' => assert!(self.open.insert(self.replaced[&c])),
                'r' => assert!(self.closed.insert(self.replaced[&c])),
                _ => continue,
            }
            assert!(self.open.remove(&c));
        }
        let e = self.expand[k];
        assert!(self.closed.remove(&e));
        self.open.insert(e);
    }
}

#[tokio::test]
async fn a_compact_run_replays_to_a_plain_astars_open_lists_forward_and_back() {
    let s = server();
    let table = eight_table();
    let goal: Vec<u16> = table.goal().cells().to_vec();
    let est = Estimator::new(table.goal());
    let mut boards = scrambles(&s, &[9, 17, 24], 2).await;
    boards.push(json!("8 6 7 2 5 4 3 0 1"));
    for board in &boards {
        for (name, weight) in
            [("manhattan", 1.0), ("hamming", 1.0), ("zero", 1.0), ("manhattan", 3.0), ("nilsson", 1.0)]
        {
            let run = ok(&api(
                &s,
                "/api/astar",
                json!({"board": board, "heuristic": name, "weight": weight, "max_expansions": 1500}),
            )
            .await);
            let h = |cells: &[u16]| match name {
                "zero" => 0,
                _ => est.estimate(Heuristic::from_name(name).expect("a heuristic"), cells),
            };
            let boards = rebuild(&run);
            let (g, hs, hstar) = (nums(&run["nodes"]["g"]), nums(&run["nodes"]["h"]), &run["nodes"]["hstar"]);
            for (id, b) in boards.iter().enumerate() {
                assert_eq!(hs[id] as u32, h(b));
                let d = table.distance(&parse(b)).expect("a lookup").map(u64::from);
                assert_eq!(hstar[id].as_u64(), d);
            }
            let reference = plain_astar(&boards[0], &goal, &h, &run);
            let mut replay = Replay::new(&run);
            let mut snapshots = Vec::new();
            for (k, (states, expanded)) in reference.iter().enumerate() {
                let open: OpenStates = replay.open.iter().map(|&i| (boards[i].clone(), g[i] as u32)).collect();
                assert_eq!(&open, states, "{board} {name} w={weight}: the open list before step {k}");
                assert_eq!(&boards[replay.expand[k]], expanded, "{board} {name} w={weight}: step {k}");
                snapshots.push((replay.open.clone(), replay.closed.clone()));
                replay.forward(k);
            }
            if let Some(path) = run["solution"]["path"].as_array() {
                let last = path[path.len() - 1].as_u64().expect("an id") as usize;
                assert_eq!(boards[last], goal);
                assert!(replay.open.contains(&last), "the goal is taken off the open list");
                assert_eq!(path.len() as u64 - 1, run["solution"]["length"].as_u64().expect("a length"));
            }
            // undone step by step, back to the start
            for k in (0..reference.len()).rev() {
                replay.back(k);
                assert_eq!((&replay.open, &replay.closed), (&snapshots[k].0, &snapshots[k].1), "undoing step {k}");
            }
        }
    }
}

#[tokio::test]
async fn idastar_iterations_rise_to_c_star_and_events_are_a_depth_first_search() {
    let s = server();
    let table = eight_table();
    let mut boards = scrambles(&s, &[3, 11, 19], 2).await;
    boards.push(json!("8 6 7 2 5 4 3 0 1"));
    for board in &boards {
        for name in ["manhattan", "linear-conflict", "zero"] {
            let run =
                ok(&api(&s, "/api/idastar", json!({"board": board, "heuristic": name, "max_expansions": 20_000}))
                    .await);
            let boards = rebuild(&run);
            let (g, h) = (nums(&run["nodes"]["g"]), nums(&run["nodes"]["h"]));
            let kind = letters(&run["nodes"]["kind"]);
            let parent = &run["nodes"]["parent"];
            let its = run["iterations"].as_array().expect("iterations");
            let bounds: Vec<u64> = its.iter().map(|i| i["bound"].as_u64().expect("a bound")).collect();
            assert!(bounds.windows(2).all(|w| w[0] < w[1]), "{bounds:?}");
            let (mut expanded, mut generated, mut next) = (0, 1, 1);
            for it in its {
                let (first, end) =
                    (it["first"].as_u64().expect("first") as usize, it["end"].as_u64().expect("end") as usize);
                assert_eq!(first, next);
                next = end;
                let bound = it["bound"].as_u64().expect("a bound");
                // the path (the depth-first stack) as the page keeps it
                let mut path = vec![0usize];
                let mut cut = u64::MAX;
                for id in first..end {
                    let p = parent[id].as_u64().expect("a parent") as usize;
                    while *path.last().expect("the start stays") != p {
                        path.pop();
                    }
                    match kind[id] {
                        'e' => {
                            assert!(g[id] + h[id] <= bound);
                            path.push(id);
                        }
                        'c' => {
                            assert!(g[id] + h[id] > bound);
                            cut = cut.min(g[id] + h[id]);
                        }
                        'g' => assert_eq!(boards[id], table.goal().cells()),
                        other => panic!("kind {other}"),
                    }
                }
                let entered = (first..end).filter(|&i| kind[i] == 'e').count() as u64;
                assert_eq!(it["expanded"].as_u64(), Some(1 + entered));
                assert_eq!(it["generated"].as_u64(), Some((end - first) as u64));
                if let Some(n) = it["next_bound"].as_u64() {
                    assert_eq!(n, cut);
                }
                expanded += 1 + entered;
                generated += (end - first) as u64;
            }
            assert_eq!(next, boards.len());
            assert_eq!((run["expansions"].as_u64(), run["generated"].as_u64()), (Some(expanded), Some(generated)));
            if run["capped"] == false {
                assert_eq!(bounds.last().copied(), run["c_star"].as_u64(), "{board} {name}");
                assert_eq!(run["solution"]["length"], run["c_star"]);
            }
        }
    }
}

#[tokio::test]
async fn capped_runs_on_the_hardest_board_stay_small() {
    let s = server();
    let hard = "8 6 7 2 5 4 3 0 1";
    for (path, h) in
        [("/api/astar", "zero"), ("/api/astar", "hamming"), ("/api/idastar", "zero"), ("/api/idastar", "hamming")]
    {
        let a = api(&s, path, json!({"board": hard, "heuristic": h, "max_expansions": 20_000})).await;
        let run = ok(&a);
        eprintln!(
            "{path} {h}: {} bytes, {} expansions, {} generated",
            a.body.len(),
            run["expansions"],
            run["generated"]
        );
        assert_eq!((run["capped"].as_bool(), run["expansions"].as_u64()), (Some(true), Some(20_000)), "{path} {h}");
        assert!(a.body.len() <= 2 << 20, "{path} {h}: {} bytes", a.body.len());
    }
}

#[tokio::test]
async fn bad_requests_get_400_saying_why() {
    let s = server();
    let solvable = "1 2 3 4 5 6 7 0 8";
    let cases = [
        (json!({"board": "2 1 3 4 5 6 7 8 0"}), "cannot reach the goal"),
        (json!({"board": solvable, "max_expansions": 0}), "max_expansions must be between 1 and 20000, not 0"),
        (json!({"board": solvable, "max_expansions": 20_001}), "max_expansions must be between 1 and 20000"),
        (json!({"board": solvable, "heuristic": "euclid"}), "unknown heuristic `euclid`"),
        (json!({"board": solvable, "heuristic": "table"}), "`table` is h* itself"),
        (json!({"board": solvable, "shape": "3by3"}), "3by3"),
        (json!({"board": solvable, "shape": "2x4"}), ""),
        (json!({"board": solvable, "goal": "blank_last"}), "blank_last"),
        (json!({"board": "1 2 3 4 5 6 7 8 9 10 11 12 13 0 14", "shape": "3x5"}), "perfect table"),
        (json!({"board": "1 2 3"}), ""),
        (json!({"board": solvable, "colour": "red"}), "colour"),
        (json!({"heuristic": "zero"}), "board"),
    ];
    for path in ["/api/astar", "/api/idastar"] {
        for (body, says) in &cases {
            let a = api(&s, path, body.clone()).await;
            assert_eq!(a.status, StatusCode::BAD_REQUEST, "{path} {body}: {}", String::from_utf8_lossy(&a.body));
            let e = a.json()["error"].as_str().expect("an error").to_string();
            assert!(!e.is_empty() && !e.contains('\n') && e.contains(says), "{path} {body}: {e}");
        }
    }
    for (weight, says) in
        [(json!(-1), "between 0 and 100, not -1"), (json!(101), "between 0 and 100"), (json!("2"), "")]
    {
        let a = api(&s, "/api/astar", json!({"board": solvable, "weight": weight})).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST);
        assert!(a.json()["error"].as_str().expect("an error").contains(says));
    }
    // IDA*'s bound is on g + h: no weight
    let a = api(&s, "/api/idastar", json!({"board": solvable, "weight": 2})).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert!(a.json()["error"].as_str().expect("an error").contains("weight"));
}

#[tokio::test]
async fn a_weight_is_searched_with_as_echoed_or_refused() {
    let s = server();
    let board = scrambles(&s, &[14], 1).await.remove(0);
    // the open list's key is 1000 g + round(1000 w) h: a finer weight would be searched as
    // another (0.0004 as 0, 1.0004 as 1) while the answer echoed the one given
    for w in [0.0004, 0.0005, 1.0004, 2.0005, 0.1234, 1e-9] {
        let a = api(&s, "/api/astar", json!({"board": board, "heuristic": "manhattan", "weight": w})).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "w={w} was taken, as weight {}", a.json()["weight"]);
        let e = a.json()["error"].as_str().expect("an error").to_string();
        assert!(e.contains("more than three decimals") && e.contains("multiple of 0.001") && !e.contains('\n'), "{e}");
        let list = json!([{"algorithm": "weighted", "heuristic": "manhattan", "weight": w}]);
        let a = api(&s, "/api/jobs/compare", json!({"board": board, "runs": list})).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "compare w={w}: {}", String::from_utf8_lossy(&a.body));
        assert!(a.json()["error"].as_str().expect("an error").contains("more than three decimals"));
    }
    // thousandths are searched with as given, and echoed the same
    let mut expansions = Vec::new();
    for w in [0.0, 0.001, 0.1, 1.999, 2.5, 100.0] {
        let run = ok(&api(
            &s,
            "/api/astar",
            json!({"board": board, "heuristic": "manhattan", "weight": w, "max_expansions": 20_000}),
        )
        .await);
        assert_eq!(run["weight"].as_f64(), Some(w));
        expansions.push(run["expansions"].clone());
        let list = json!([{"algorithm": "weighted", "heuristic": "manhattan", "weight": w}]);
        let a = api(&s, "/api/jobs/compare", json!({"board": board, "runs": list})).await;
        let compared = runs(&a.body);
        assert_eq!(compared[0]["label"], format!("weighted A* w={w} (manhattan)"));
        assert_eq!(compared[0]["expanded"], run["expansions"], "w={w}");
    }
    // 0.001 is not 0: h breaks the ties between nodes of equal g
    assert_ne!(expansions[0], expansions[1]);
}
