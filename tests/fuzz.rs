//! The fuzz targets of `tests/fuzz_targets` driven by proptest over random and mutated bytes, a
//! fixed number of cases each, so that CI runs them on every change. The coverage-guided runs of
//! the same targets are `scripts/fuzz.sh` (cargo-fuzz). Set `SLIDETABLE_FUZZ_CASES` for a longer
//! run. A failing case is shrunk by proptest; add it below as a regression test.

use crate::fuzz_targets;

use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::test_runner::Config;

use fuzz_targets::{fix_checksums, seed_tables};

/// Cases per target: `SLIDETABLE_FUZZ_CASES`, or 4000.
fn config() -> Config {
    let cases = std::env::var("SLIDETABLE_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(4000);
    Config { cases, failure_persistence: None, ..Config::default() }
}

fn seeds() -> &'static [Vec<u8>] {
    static SEEDS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    SEEDS.get_or_init(seed_tables)
}

/// One change to a file's bytes.
#[derive(Clone, Debug)]
enum Mutation {
    /// XOR a byte (the index is taken modulo the length).
    Flip(usize, u8),
    /// Overwrite a run of bytes with these.
    Splice(usize, Vec<u8>),
    /// Cut the file to this length (modulo the length plus one).
    Truncate(usize),
    /// Append these bytes.
    Extend(Vec<u8>),
    /// Set a header field (offset, width in bytes) to a value, little-endian.
    Field((usize, usize), u64),
    /// Set a payload byte (index modulo the payload) to a value.
    Entry(usize, u8),
}

/// The header's fields: offset and width (docs/formats.md), the histogram's first slots included.
const FIELDS: &[(usize, usize)] = &[
    (8, 4),
    (12, 4),
    (16, 1),
    (17, 1),
    (18, 1),
    (19, 1),
    (20, 1),
    (21, 1),
    (28, 1),
    (40, 8),
    (48, 4),
    (64, 8),
    (72, 8),
    (80, 8),
    (88, 8),
    (96, 8),
    (104, 8),
    (112, 8),
    (2112, 1),
    (2113, 1),
    (2116, 1),
    (2117, 1),
    (2118, 1),
    (2180, 1),
    (2181, 1),
    (2185, 1),
];

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (any::<usize>(), 1..=255u8).prop_map(|(i, x)| Mutation::Flip(i, x)),
        2 => (any::<usize>(), prop::collection::vec(any::<u8>(), 1..16)).prop_map(|(i, b)| Mutation::Splice(i, b)),
        1 => any::<usize>().prop_map(Mutation::Truncate),
        1 => prop::collection::vec(any::<u8>(), 1..64).prop_map(Mutation::Extend),
        2 => (prop::sample::select(FIELDS), prop_oneof![Just(0u64), Just(1), Just(255), Just(u64::MAX), 0..40u64, any::<u64>()])
            .prop_map(|(f, v)| Mutation::Field(f, v)),
        3 => (any::<usize>(), prop_oneof![0..24u8, Just(254), Just(255)]).prop_map(|(i, v)| Mutation::Entry(i, v)),
    ]
}

fn apply(file: &mut Vec<u8>, m: &Mutation) {
    let len = file.len();
    match m {
        Mutation::Flip(i, x) if len > 0 => file[i % len] ^= x,
        Mutation::Splice(i, bytes) if len > 0 => {
            let at = i % len;
            let end = (at + bytes.len()).min(len);
            file[at..end].copy_from_slice(&bytes[..end - at]);
        }
        Mutation::Truncate(n) => file.truncate(n % (len + 1)),
        Mutation::Extend(bytes) => file.extend_from_slice(bytes),
        Mutation::Field((at, width), v) if at + width <= len => {
            file[*at..at + width].copy_from_slice(&v.to_le_bytes()[..*width]);
        }
        Mutation::Entry(i, v) if len > 4096 => file[4096 + i % (len - 4096)] = *v,
        _ => {}
    }
}

/// A real table with one to four changes, its checksums made to match in half the cases (so that
/// the loaders' own checks are reached, not only the checksum).
fn mutated_table() -> impl Strategy<Value = Vec<u8>> {
    (any::<prop::sample::Index>(), prop::collection::vec(mutation(), 1..5), any::<bool>()).prop_map(
        |(which, mutations, fix)| {
            let mut file = which.get(seeds()).clone();
            for m in &mutations {
                apply(&mut file, m);
            }
            if fix {
                fix_checksums(&mut file);
            }
            file
        },
    )
}

/// Random bytes, or a table's header followed by random bytes.
fn random_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..200),
        (any::<prop::sample::Index>(), prop::collection::vec(any::<u8>(), 0..600)).prop_map(|(which, tail)| {
            let mut file = which.get(seeds())[..4096].to_vec();
            file.extend(tail);
            file
        }),
    ]
}

/// Text a board parser might meet: board-like tokens, separators, stray characters.
fn board_text() -> impl Strategy<Value = Vec<u8>> {
    (
        any::<u8>(),
        prop_oneof![
            "[0-9 ]{0,40}",
            // rows, whole or ragged, between slashes or line feeds
            "/? ?(([0-9]{1,2}|_)[ ,]?){1,5}( ?[/\n] ?(([0-9]{1,2}|_)[ ,]?){0,5}){0,5}/?",
            "[0-9_. ,;/\t\r\n()\\[\\]x+\\-é\u{a0}a-z]{0,40}",
            "(blank-last|blank-first|snail|auto|5-5-5|7-8|4-4|[0-9]{1,3}[,/]){0,8}",
            any::<String>(),
        ],
    )
        .prop_map(|(first, text)| {
            let mut data = vec![first];
            data.extend(text.into_bytes());
            data
        })
}

/// Lines of boards (solvable or not) for the batch tables' shapes, the first byte naming the
/// table (see `fuzz_targets::batch`): the tiles separated by spaces, given in whole rows with
/// ` / `, or with ` / ` at random places (ragged rows, which are not boards).
fn board_lines() -> impl Strategy<Value = Vec<u8>> {
    (0..4u8, any::<u8>()).prop_flat_map(|(table, mode)| {
        let n = [9u8, 9, 6, 8][table as usize];
        let cols = [3, 3, 3, 4][table as usize];
        let line = (Just((0..n).collect::<Vec<u8>>()).prop_shuffle(), 0..4u8, any::<u16>());
        prop::collection::vec(line, 1..20).prop_map(move |lines| {
            let mut data = vec![table | (mode & !3)];
            for (tiles, rows, slashes) in lines {
                for (k, tile) in tiles.iter().enumerate() {
                    let row_end = match rows {
                        0 => k % cols == 0,
                        1 => slashes >> k & 1 == 1,
                        _ => false,
                    };
                    if k > 0 {
                        data.extend_from_slice(if row_end { b" / " } else { b" " });
                    }
                    data.extend(tile.to_string().into_bytes());
                }
                data.push(b'\n');
            }
            data
        })
    })
}

/// Batch input: lines of boards, lines of board-like text with `\n` and `\r\n`, or any bytes.
fn batch_input() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![1 => board_lines(), 3 => text_input()]
}

fn text_input() -> impl Strategy<Value = Vec<u8>> {
    (
        any::<u8>(),
        prop_oneof![
            3 => "([0-9]{1,2}[ ,/]?){0,10}(\r?\n([0-9]{1,2}[ ,/]?){0,10}){0,12}\n?",
            2 => "(/? ?(([0-9]{1,2}|_)[ ,]?){1,4}( ?/ ?(([0-9]{1,2}|_)[ ,]?){0,4}){0,4}/?\r?\n){1,12}",
            2 => "[0-9_. ,;/\t\r\n]{0,120}",
            1 => prop::collection::vec(any::<u8>(), 0..120).prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        ],
        prop::collection::vec(any::<u8>(), 0..3),
    )
        .prop_map(|(first, text, junk)| {
            let mut data = vec![first];
            data.extend(text.into_bytes());
            // now and then a byte that is not UTF-8, which stops a run
            if junk.len() == 2 {
                let at = junk[0] as usize % data.len();
                data.insert(at, 0x80 | junk[1]);
            }
            data
        })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn header_parser_on_mutated_tables(file in mutated_table()) {
        fuzz_targets::header(&file);
    }

    #[test]
    fn header_parser_on_random_bytes(file in random_bytes()) {
        fuzz_targets::header(&file);
    }

    #[test]
    fn table_loaders_on_mutated_tables(file in mutated_table()) {
        fuzz_targets::table(&file);
    }

    #[test]
    fn table_loaders_on_random_bytes(file in random_bytes()) {
        fuzz_targets::table(&file);
    }

    #[test]
    fn board_parsers(data in board_text()) {
        fuzz_targets::board(&data);
    }

    #[test]
    fn batch_reader(data in batch_input()) {
        fuzz_targets::batch(&data);
    }
}

/// The seeds themselves pass every target's checks (so a target that rejected every real table,
/// and so checked nothing past the loader, would fail here).
#[test]
fn seeds_are_accepted() {
    use slidetable::table::PatternTable;
    use slidetable::Table;
    for (i, seed) in seeds().iter().enumerate() {
        let perfect = Table::new(&seed[..]).is_ok();
        let pattern = PatternTable::new(&seed[..]).is_ok();
        assert!(perfect != pattern, "seed {i} is accepted as exactly one kind");
        fuzz_targets::header(seed);
        fuzz_targets::table(seed);
    }
}
