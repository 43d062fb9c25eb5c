//! `slidetable::solver`: the choices every front end makes before a search, on small boards
//! whose tables build in milliseconds (3x3 groups, 4x4's 5-5-5).

use std::path::Path;

use slidetable::heuristic::pdb::Partition;
use slidetable::search::{Algorithm, Options};
use slidetable::solver::{
    default_partition, default_table_name, found_partition, game_oracle, load_patterns, pattern_build_command,
    HeuristicKind, Load, Notice, Solver, SolverConfig, TableBytes,
};
use slidetable::{Board, Error, Goal, Shape, Table};

fn four() -> Shape {
    Shape::new(4, 4).unwrap()
}

/// Korf's instance 79, 42 moves from the blank-first goal.
const KORF_79: &str = "0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15";

fn options(algorithm: Algorithm) -> Options {
    Options { algorithm, ..Options::default() }
}

fn config_in(dir: &Path) -> SolverConfig {
    SolverConfig { dir: dir.to_path_buf(), ..SolverConfig::default() }
}

/// What a solver said, kept for the test to look at.
fn collect(notices: &mut Vec<Notice>) -> impl FnMut(Notice) + '_ {
    move |n| notices.push(n)
}

/// 4x4's 5-5-5 tables for the blank-first goal, built into `dir`.
fn five_five_five(dir: &Path) {
    let goal = Goal::BlankFirst.board(four()).unwrap();
    let partition = Partition::parse(&goal, "5-5-5").unwrap();
    let mut notices = Vec::new();
    load_patterns(&Goal::BlankFirst, &goal, &partition, dir, Load::default(), collect(&mut notices)).unwrap();
    assert_eq!(notices.len(), 3, "{notices:?}");
    for n in notices {
        assert!(matches!(n, Notice::BuiltPattern { saved: Ok(()), .. }), "{n:?}");
    }
}

#[test]
fn heuristic_kinds_are_named_as_on_the_command_line() {
    let names: Vec<&str> = HeuristicKind::all().iter().map(|k| k.name()).collect();
    assert_eq!(names, ["hamming", "manhattan", "linear-conflict", "nilsson", "table", "pdb"]);
    for kind in HeuristicKind::all() {
        assert_eq!(HeuristicKind::from_name(kind.name()), Some(kind));
    }
    assert_eq!(HeuristicKind::from_name("misplaced"), Some(HeuristicKind::Hamming));
    assert_eq!(HeuristicKind::from_name("linear_conflict"), Some(HeuristicKind::LinearConflict));
    assert_eq!(HeuristicKind::from_name("LC"), Some(HeuristicKind::LinearConflict));
    assert_eq!(HeuristicKind::from_name("PDB"), Some(HeuristicKind::Pdb));
    assert_eq!(HeuristicKind::from_name("astar"), None);
}

#[test]
fn a_solver_is_shared_across_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<Solver>();
    shareable::<TableBytes>();
}

#[test]
fn up_to_12_cells_linear_conflict_and_a_perfect_table() {
    let dir = tempfile::tempdir().unwrap();
    let mut notices = Vec::new();
    let solver = Solver::new(&Goal::BlankLast, Shape::EIGHT, &config_in(dir.path()), collect(&mut notices)).unwrap();
    assert_eq!(solver.heuristic(), HeuristicKind::LinearConflict);
    assert_eq!(solver.default_algorithm(), Algorithm::AStar);
    assert!(solver.patterns().is_none());
    assert!(solver.table().is_some(), "3x3: the default file, or a table built in memory");
    assert_eq!(solver.goal(), &Goal::BlankLast);
    assert_eq!(solver.goal_board(), &Goal::BlankLast.board(Shape::EIGHT).unwrap());
    assert!(notices.is_empty(), "{notices:?}");
}

#[test]
fn past_12_cells_without_tables_linear_conflict_and_a_hint() {
    let dir = tempfile::tempdir().unwrap();
    let mut notices = Vec::new();
    let solver = Solver::new(&Goal::BlankFirst, four(), &config_in(dir.path()), collect(&mut notices)).unwrap();
    assert_eq!(solver.heuristic(), HeuristicKind::LinearConflict);
    assert!(solver.table().is_none());
    let command = format!("table build --board 4x4 --goal blank-first --pattern 6-6-3 --dir {}", dir.path().display());
    match &notices[..] {
        [Notice::Hint(text)] => assert!(text.contains(&command), "{text}"),
        other => panic!("one hint expected: {other:?}"),
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "nothing built");
    // a named heuristic: no hint
    let mut notices = Vec::new();
    let config = SolverConfig { heuristic: Some(HeuristicKind::Manhattan), ..config_in(dir.path()) };
    Solver::new(&Goal::BlankFirst, four(), &config, collect(&mut notices)).unwrap();
    assert!(notices.is_empty(), "{notices:?}");
}

#[test]
fn past_16_cells_without_tables_the_bounded_search_with_a_hint_that_says_so() {
    // an optimal search with linear conflict on a 3x6 can take hours: the default is the bounded
    // search at factor 1 there (with a time limit), and for the game too; the 15-puzzle keeps IDA*
    let dir = tempfile::tempdir().unwrap();
    let three_six = Shape::new(3, 6).unwrap();
    let mut notices = Vec::new();
    let solver = Solver::new(&Goal::BlankLast, three_six, &config_in(dir.path()), collect(&mut notices)).unwrap();
    assert_eq!(solver.heuristic(), HeuristicKind::LinearConflict);
    assert_eq!(solver.default_algorithm(), Algorithm::Within(1.0));
    assert!(solver.default_time_limit().is_some());
    match &notices[..] {
        [Notice::Hint(text)] => {
            assert!(text.contains("the optimum if it is proven by then") && text.contains("--pattern auto"), "{text}")
        }
        other => panic!("one hint expected: {other:?}"),
    }
    let game = game_oracle(&Goal::BlankLast, three_six, dir.path(), 1).unwrap();
    assert_eq!(game.describe(), "a search within a factor 1 of optimal with linear conflict");
    // a named estimate other than pattern tables is the same; with pattern tables, IDA*
    let config = SolverConfig { heuristic: Some(HeuristicKind::Manhattan), ..config_in(dir.path()) };
    let manhattan = Solver::new(&Goal::BlankLast, three_six, &config, |_| {}).unwrap();
    assert!(matches!(manhattan.default_algorithm(), Algorithm::Within(_)));
    let config = SolverConfig { partition: Some("auto".into()), ..config_in(dir.path()) };
    let pdb = Solver::new(&Goal::BlankLast, three_six, &config, |_| {}).unwrap();
    assert_eq!(pdb.default_algorithm(), Algorithm::IdaStar);
    let fifteen = Solver::new(&Goal::BlankFirst, four(), &config_in(dir.path()), |_| {}).unwrap();
    assert_eq!(fifteen.default_algorithm(), Algorithm::IdaStar);
}

#[test]
fn a_tables_directory_that_is_not_there_is_refused_before_anything_is_built() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    for (path, why) in [(dir.path().join("nowhere"), "no such directory"), (file, "not a directory")] {
        let mut notices = Vec::new();
        let config = SolverConfig { heuristic: Some(HeuristicKind::Pdb), ..config_in(&path) };
        let Err(err) = Solver::new(&Goal::BlankFirst, four(), &config, collect(&mut notices)) else {
            panic!("{path:?} taken")
        };
        assert!(matches!(err, Error::Io { .. }), "{err:?}");
        let text = err.to_string();
        assert!(text.starts_with("looking for pattern tables in ") && text.contains(why), "{text}");
        assert!(notices.is_empty(), "nothing built: {notices:?}");
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "nothing written beside");
}

#[test]
fn past_12_cells_with_a_partitions_tables_pattern_databases() {
    let dir = tempfile::tempdir().unwrap();
    five_five_five(dir.path());
    let goal = Goal::BlankFirst.board(four()).unwrap();
    assert_eq!(found_partition(&Goal::BlankFirst, &goal, dir.path()).map(|p| p.name), Some("5-5-5".to_string()));
    let mut notices = Vec::new();
    let solver = Solver::new(&Goal::BlankFirst, four(), &config_in(dir.path()), collect(&mut notices)).unwrap();
    // the only thing made is the default move-pruning machine, saved beside the tables
    assert!(
        matches!(&notices[..], [Notice::BuiltMachine { path, saved: Ok(()), .. }] if path.ends_with("4x4-moves-12.fsm")),
        "{notices:?}"
    );
    assert!(solver.pruner().is_some_and(|m| m.max_len() == 12));
    let again = Solver::new(&Goal::BlankFirst, four(), &config_in(dir.path()), collect(&mut notices)).unwrap();
    assert_eq!(notices.len(), 1, "the saved machine is read the second time");
    assert_eq!(again.pruner(), solver.pruner());
    assert_eq!(solver.heuristic(), HeuristicKind::Pdb);
    assert_eq!(solver.default_algorithm(), Algorithm::IdaStar);
    assert_eq!(solver.patterns().map(|set| set.partition().name.as_str()), Some("5-5-5"));
    assert_eq!(solver.guide().unwrap().name(), "pdb");
    let board = Board::parse(four(), KORF_79).unwrap();
    assert_eq!(solver.exact(&board).unwrap(), None, "no perfect table past 12 cells");
    let found = solver.solve(&board, &options(solver.default_algorithm())).unwrap().unwrap();
    assert_eq!(found.moves.len(), 42);
}

#[test]
fn a_partition_alone_means_pattern_databases_and_small_tables_are_built() {
    let dir = tempfile::tempdir().unwrap();
    let config = SolverConfig { partition: Some("1,2,3/4,5,6,7,8".into()), ..config_in(dir.path()) };
    let mut notices = Vec::new();
    let solver = Solver::new(&Goal::BlankLast, Shape::EIGHT, &config, collect(&mut notices)).unwrap();
    assert_eq!(solver.heuristic(), HeuristicKind::Pdb);
    let built: Vec<String> = notices
        .iter()
        .map(|n| match n {
            Notice::BuiltPattern { path, saved: Ok(()), .. } | Notice::BuiltMachine { path, saved: Ok(()), .. } => {
                path.file_name().unwrap().to_string_lossy().into_owned()
            }
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(built, ["3x3-blank-last-tiles-1-2-3.table", "3x3-blank-last-tiles-4-5-6-7-8.table", "3x3-moves-12.fsm"]);
    assert!(dir.path().join("3x3-blank-last-tiles-1-2-3.table").exists());
}

#[test]
fn a_partition_with_another_heuristic_is_refused() {
    let config = SolverConfig {
        heuristic: Some(HeuristicKind::Manhattan),
        partition: Some("7-8".into()),
        ..SolverConfig::default()
    };
    match Solver::new(&Goal::BlankLast, Shape::EIGHT, &config, |_| {}) {
        Err(Error::BadOption(text)) => assert_eq!(text, "--pattern goes with --heuristic pdb"),
        other => panic!("{:?}", other.map(|s| s.heuristic())),
    }
}

#[test]
fn missing_tables_not_to_be_built_are_named_with_their_command() {
    let dir = tempfile::tempdir().unwrap();
    let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
    let partition = Partition::parse(&goal, "1,2,3/4,5,6").unwrap();
    let err = load_patterns(
        &Goal::BlankLast,
        &goal,
        &partition,
        dir.path(),
        Load { build_missing: false, ..Load::default() },
        |_| {},
    )
    .unwrap_err();
    let command =
        format!("table build --board 3x3 --goal blank-last --pattern 1,2,3/4,5,6 --dir {}", dir.path().display());
    match &err {
        Error::MissingTables { paths, command: c, partition, dir: d } => {
            assert_eq!((partition.as_str(), d.as_path()), ("1,2,3/4,5,6", dir.path()));
            assert_eq!(paths.len(), 2);
            assert!(paths[0].ends_with("3x3-blank-last-tiles-1-2-3.table"), "{paths:?}");
            assert_eq!(c, &command);
        }
        other => panic!("{other:?}"),
    }
    assert!(err.to_string().starts_with("no pattern table at "), "{err}");
    assert!(err.to_string().ends_with(&format!("build the tables with `{command}`")), "{err}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "nothing built");
    // the same through a solver
    let config = SolverConfig {
        heuristic: Some(HeuristicKind::Pdb),
        partition: Some("1,2,3/4,5,6".into()),
        build_missing: false,
        ..config_in(dir.path())
    };
    let err = Solver::new(&Goal::BlankLast, Shape::EIGHT, &config, |_| {}).err().unwrap();
    assert!(matches!(err, Error::MissingTables { .. }), "{err}");
}

#[test]
fn a_file_under_a_pattern_tables_name_that_is_another_table_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
    let partition = Partition::parse(&goal, "1,2,3/4,5,6").unwrap();
    load_patterns(&Goal::BlankLast, &goal, &partition, dir.path(), Load::default(), |_| {}).unwrap();
    let right = dir.path().join("3x3-blank-last-tiles-4-5-6.table");
    std::fs::copy(dir.path().join("3x3-blank-last-tiles-1-2-3.table"), &right).unwrap();
    let err = load_patterns(
        &Goal::BlankLast,
        &goal,
        &partition,
        dir.path(),
        Load { build_missing: false, ..Load::default() },
        |_| {},
    )
    .unwrap_err();
    match &err {
        Error::WrongPatternTable(wrong) => {
            assert_eq!(wrong.path, right);
            assert_eq!(wrong.tiles, [4, 5, 6]);
            assert_eq!(wrong.goal, goal);
            assert!(wrong.command.starts_with("table build --board 3x3 --goal blank-last --pattern 1,2,3/4,5,6"));
        }
        other => panic!("{other:?}"),
    }
    let text = err.to_string();
    assert!(text.contains("is a pattern table of tiles 1,2,3"), "{text}");
    assert!(
        text.contains("not the table of tiles [4, 5, 6] for goal 1 2 3 / 4 5 6 / 7 8 _; rebuild it with `table build")
    );
    // not a table at all: the file is named
    std::fs::write(&right, b"hello").unwrap();
    let err = load_patterns(
        &Goal::BlankLast,
        &goal,
        &partition,
        dir.path(),
        Load { build_missing: false, ..Load::default() },
        |_| {},
    )
    .unwrap_err();
    assert!(matches!(&err, Error::InFile { action: "opening", path, .. } if path == &right), "{err}");
    assert_eq!(err.to_string(), format!("opening {}: not a slidetable table file (bad magic bytes)", right.display()));
}

#[test]
fn solve_on_3x3_matches_the_exact_distance() {
    let solver = Solver::new(&Goal::BlankLast, Shape::EIGHT, &SolverConfig::default(), |_| {}).unwrap();
    let board = Board::parse(Shape::EIGHT, "8 6 7 2 5 4 3 0 1").unwrap();
    assert_eq!(solver.exact(&board).unwrap(), Some(31));
    for algorithm in [Algorithm::AStar, Algorithm::IdaStar, Algorithm::Bfs] {
        let found = solver.solve(&board, &options(algorithm)).unwrap().unwrap();
        assert_eq!(found.moves.len(), 31, "{algorithm:?}");
    }
    let unsolvable = Board::parse(Shape::EIGHT, "1 2 3 4 5 6 8 7 0").unwrap();
    assert!(solver.solve(&unsolvable, &options(Algorithm::AStar)).unwrap().is_none());
    // the table as the guide
    let config = SolverConfig { heuristic: Some(HeuristicKind::Table), ..SolverConfig::default() };
    let solver = Solver::new(&Goal::BlankLast, Shape::EIGHT, &config, |_| {}).unwrap();
    assert_eq!(solver.guide().unwrap().name(), "table");
    assert_eq!(solver.solve(&board, &options(Algorithm::AStar)).unwrap().unwrap().moves.len(), 31);
}

#[test]
fn a_given_table_is_checked_and_none_means_none() {
    let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
    let in_memory =
        |goal: &Board| Table::new(TableBytes::Owned(slidetable::build(goal, |_| {}).unwrap().into_inner())).unwrap();
    // the table of another board
    let two_by_four = Goal::BlankLast.board(Shape::new(2, 4).unwrap()).unwrap();
    let given = Some((in_memory(&two_by_four), "x.table".to_string()));
    let err =
        Solver::with_table(&Goal::BlankLast, Shape::EIGHT, &SolverConfig::default(), given, |_| {}).err().unwrap();
    assert!(matches!(err, Error::TableShape { .. }), "{err}");
    assert!(err.to_string().starts_with("x.table is a 2x4 table: the board is 3x3 (9 cells)"), "{err}");
    // the table of another goal
    let blank_first = Goal::BlankFirst.board(Shape::EIGHT).unwrap();
    let given = Some((in_memory(&blank_first), "y.table".to_string()));
    let err =
        Solver::with_table(&Goal::BlankLast, Shape::EIGHT, &SolverConfig::default(), given, |_| {}).err().unwrap();
    assert_eq!(
        err.to_string(),
        "bad goal: y.table has goal _ 1 2 / 3 4 5 / 6 7 8, but the board's goal is 1 2 3 / 4 5 6 / 7 8 _"
    );
    // the right one
    let given = Some((in_memory(&goal), "z.table".to_string()));
    let solver = Solver::with_table(&Goal::BlankLast, Shape::EIGHT, &SolverConfig::default(), given, |_| {}).unwrap();
    assert_eq!(solver.table().map(|(_, from)| from), Some("z.table"));
    // none: no table to check answers with
    let solver = Solver::with_table(&Goal::BlankLast, Shape::EIGHT, &SolverConfig::default(), None, |_| {}).unwrap();
    assert!(solver.table().is_none());
    assert_eq!(solver.exact(&Board::parse(Shape::EIGHT, "1 2 3 4 5 6 7 0 8").unwrap()).unwrap(), None);
    // and -H table has nothing to go on: refused when the solver is made, saying how to get a table
    let config = SolverConfig { heuristic: Some(HeuristicKind::Table), ..SolverConfig::default() };
    match Solver::with_table(&Goal::BlankLast, Shape::EIGHT, &config, None, |_| {}) {
        Err(Error::BadOption(text)) => assert!(text.contains("no table for this 3x3 board"), "{text}"),
        other => panic!("{:?}", other.map(|s| s.heuristic())),
    }
}

#[test]
fn a_named_table_file_is_opened_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.table");
    slidetable::build(&Goal::BlankLast.board(Shape::new(2, 4).unwrap()).unwrap(), |_| {})
        .unwrap()
        .write(&path)
        .unwrap();
    let config = SolverConfig { table: Some(path.clone()), ..SolverConfig::default() };
    let solver = Solver::new(&Goal::BlankLast, Shape::new(2, 4).unwrap(), &config, |_| {}).unwrap();
    assert_eq!(solver.table().map(|(_, from)| from.to_string()), Some(path.display().to_string()));
    let err = Solver::new(&Goal::BlankLast, Shape::EIGHT, &config, |_| {}).err().unwrap();
    assert!(matches!(err, Error::TableShape { .. }), "{err}");
    let config = SolverConfig { table: Some(dir.path().join("none.table")), ..SolverConfig::default() };
    let err = Solver::new(&Goal::BlankLast, Shape::EIGHT, &config, |_| {}).err().unwrap();
    assert!(matches!(err, Error::InFile { action: "opening", .. }), "{err}");
}

#[test]
fn names_and_commands() {
    assert_eq!(default_table_name(Shape::EIGHT, &Goal::BlankLast), Path::new("eight.table"));
    assert_eq!(default_table_name(Shape::new(2, 4).unwrap(), &Goal::BlankLast), Path::new("2x4-blank-last.table"));
    assert_eq!(default_table_name(Shape::EIGHT, &Goal::Snail), Path::new("3x3-snail.table"));
    assert_eq!(default_partition(four()), "6-6-3");
    assert_eq!(default_partition(Shape::new(5, 5).unwrap()), "6-6-6-6");
    assert_eq!(default_partition(Shape::EIGHT), "auto");
    let custom = Goal::parse(Shape::EIGHT, "1 2 3 4 5 6 7 0 8").unwrap();
    let goal = custom.board(Shape::EIGHT).unwrap();
    let partition = Partition::parse(&goal, "1,2,3/4,5,6").unwrap();
    assert_eq!(
        pattern_build_command(Shape::EIGHT, &custom, &partition, Path::new(".")),
        "table build --board 3x3 --goal '1 2 3 4 5 6 7 0 8' --pattern 1,2,3/4,5,6"
    );
}

#[test]
fn a_game_asks_a_table_or_a_search() {
    let small = game_oracle(&Goal::BlankLast, Shape::EIGHT, Path::new("."), 1).unwrap();
    assert!(small.is_instant());
    let dir = tempfile::tempdir().unwrap();
    let plain = game_oracle(&Goal::BlankFirst, four(), dir.path(), 1).unwrap();
    assert_eq!(plain.describe(), "IDA* with linear conflict");
    five_five_five(dir.path());
    let pdb = game_oracle(&Goal::BlankFirst, four(), dir.path(), 1).unwrap();
    assert_eq!(pdb.describe(), "IDA* with pattern tables 5-5-5");
    let board = Board::parse(four(), "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15").unwrap();
    assert_eq!(pdb.distance(&board).unwrap(), Some(1));
}

#[test]
fn shared_tables_keep_the_file_mapping_and_give_the_same_estimates() {
    let dir = tempfile::tempdir().unwrap();
    let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
    let partition = Partition::parse(&goal, "1,2,3,4/5,6,7,8").unwrap();
    let private = load_patterns(&Goal::BlankLast, &goal, &partition, dir.path(), Load::default(), |_| {}).unwrap();
    assert!(private.tables().iter().all(|t| !t.is_mapped()));
    let shared = Load { shared: true, ..Load::default() };
    let mapped = load_patterns(&Goal::BlankLast, &goal, &partition, dir.path(), shared, |_| {}).unwrap();
    assert!(mapped.tables().iter().all(|t| t.is_mapped()));
    let table = slidetable::build(&goal, |_| {}).unwrap();
    for i in (0..table.index().len()).step_by(97) {
        let board = table.index().board(i);
        assert_eq!(mapped.estimate(&board).unwrap(), private.estimate(&board).unwrap());
    }
    // through a solver, the search is the same
    let config = SolverConfig {
        heuristic: Some(HeuristicKind::Pdb),
        partition: Some("1,2,3,4/5,6,7,8".into()),
        share_tables: true,
        ..config_in(dir.path())
    };
    let solver = Solver::new(&Goal::BlankLast, Shape::EIGHT, &config, |_| {}).unwrap();
    assert!(solver.patterns().unwrap().tables().iter().all(|t| t.is_mapped()));
    let hardest = Board::parse(Shape::EIGHT, "8 6 7 2 5 4 3 0 1").unwrap();
    let found = solver.solve(&hardest, &Options::new(slidetable::search::Algorithm::IdaStar)).unwrap().unwrap();
    assert_eq!(found.moves.len(), 31);
}
