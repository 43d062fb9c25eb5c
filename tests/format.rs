//! The table file format (`src/format.rs`) and opening tables (`Table::new`, `open`, `write`):
//! every damaged, truncated, foreign or inconsistent file is rejected with the right error, and
//! corruption that keeps the checksums consistent is caught by `verify` and by the self-checking
//! queries rather than turned into a wrong answer.

use std::sync::OnceLock;

use proptest::prelude::*;
use slidetable::index::rank::FACT;
use slidetable::table::format::{Encoding, Header, HISTOGRAM_LEN, MAGIC, PAYLOAD_OFFSET, UNREACHED, VERSION};
use slidetable::table::CHECK_ON_OPEN_LIMIT;
use slidetable::{build, open, Board, Error, Goal, Shape, StateIndex, Table};

// Header field offsets, as documented in the module doc of `slidetable::table::format`.
const OFF_VERSION: usize = 8;
const OFF_PAYLOAD: usize = 12;
const OFF_ROWS: usize = 16;
const OFF_COLS: usize = 17;
const OFF_ENCODING: usize = 18;
const OFF_MAX_DEPTH: usize = 19;
const OFF_GOAL: usize = 20;
const OFF_COUNT: usize = 40;
const OFF_PAYLOAD_CRC: usize = 48;
const OFF_HEADER_CRC: usize = 52;
const OFF_HISTOGRAM: usize = 64;

const TABLE_SHAPES: [(usize, usize); 12] =
    [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3), (2, 5), (5, 2), (2, 6), (6, 2), (3, 4), (4, 3)];

fn built(rows: usize, cols: usize) -> &'static [u8] {
    static T23: OnceLock<Vec<u8>> = OnceLock::new();
    static T33: OnceLock<Vec<u8>> = OnceLock::new();
    let cell = match (rows, cols) {
        (2, 3) => &T23,
        (3, 3) => &T33,
        _ => unreachable!(),
    };
    cell.get_or_init(|| {
        let goal = Goal::BlankLast.board(Shape::new(rows, cols).unwrap()).unwrap();
        build(&goal, |_| {}).unwrap().as_bytes().to_vec()
    })
}

/// The bytes of the 2x3 and the 3x3 blank-last tables.
fn tables() -> [Vec<u8>; 2] {
    [built(2, 3).to_vec(), built(3, 3).to_vec()]
}

fn err(bytes: Vec<u8>) -> Error {
    match Table::new(bytes) {
        Ok(_) => panic!("a damaged table was accepted"),
        Err(e) => e,
    }
}

fn read_u32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn write_u32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

/// Recomputes the header checksum after the header bytes were edited by hand.
fn reseal_header(b: &mut [u8]) {
    write_u32(b, OFF_HEADER_CRC, 0);
    let crc = crc32fast::hash(&b[..PAYLOAD_OFFSET]);
    write_u32(b, OFF_HEADER_CRC, crc);
}

/// Makes both checksums consistent with the (edited) payload, re-encoding the header through the
/// library: `Header::parse`, a new payload CRC, `Header::to_bytes`.
fn reseal_payload(b: &mut [u8]) {
    let mut header = Header::parse(b).unwrap();
    header.payload_crc = crc32fast::hash(&b[PAYLOAD_OFFSET..]);
    b[..PAYLOAD_OFFSET].copy_from_slice(&header.to_bytes());
}

// ---------------------------------------------------------------------------------------------
// A good table

#[test]
fn a_built_table_opens_and_its_header_is_as_documented() {
    for bytes in tables() {
        let table = Table::new(bytes.clone()).unwrap();
        let h = table.header();
        let n = h.shape.cells();
        assert_eq!(&bytes[..8], &MAGIC);
        assert_eq!(&bytes[..8], b"SLIDETBL");
        assert_eq!(read_u32(&bytes, OFF_VERSION), VERSION);
        assert_eq!(VERSION, 1);
        assert_eq!(read_u32(&bytes, OFF_PAYLOAD) as usize, PAYLOAD_OFFSET);
        assert_eq!(PAYLOAD_OFFSET, 4096);
        assert_eq!((bytes[OFF_ROWS] as usize, bytes[OFF_COLS] as usize), (h.shape.rows(), h.shape.cols()));
        assert_eq!(bytes[OFF_ENCODING], Encoding::DistanceByte as u8);
        assert_eq!(bytes[OFF_MAX_DEPTH], h.max_depth);
        let goal: Vec<u16> = bytes[OFF_GOAL..OFF_GOAL + n].iter().map(|&t| t as u16).collect();
        assert_eq!(goal, h.goal.cells());
        assert!(bytes[OFF_GOAL + n..OFF_COUNT].iter().all(|&b| b == 0), "unused goal cells and reserved are 0");
        assert_eq!(u64::from_le_bytes(bytes[OFF_COUNT..OFF_COUNT + 8].try_into().unwrap()), FACT[n] / 2);
        assert_eq!(read_u32(&bytes, OFF_PAYLOAD_CRC), crc32fast::hash(&bytes[PAYLOAD_OFFSET..]));
        assert!(bytes[56..64].iter().all(|&b| b == 0));
        for d in 0..HISTOGRAM_LEN {
            let at = OFF_HISTOGRAM + 8 * d;
            let count = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
            assert_eq!(count, h.histogram.get(d).copied().unwrap_or(0));
        }
        assert!(bytes[OFF_HISTOGRAM + 8 * HISTOGRAM_LEN..PAYLOAD_OFFSET].iter().all(|&b| b == 0));
        assert_eq!(bytes.len() as u64, h.file_len());
        assert_eq!(h.to_bytes(), &bytes[..PAYLOAD_OFFSET]);
        assert!(!table.payload().contains(&UNREACHED));
        table.verify().unwrap();
    }
}

// ---------------------------------------------------------------------------------------------
// Damaged files

#[test]
fn truncated_files() {
    for bytes in tables() {
        let len = bytes.len();
        for cut in [0, 1, 4, 7] {
            assert!(matches!(err(bytes[..cut].to_vec()), Error::BadMagic), "{cut} bytes");
        }
        for cut in [8, 100, 4095] {
            match err(bytes[..cut].to_vec()) {
                Error::WrongLength { expected: 4096, found } => assert_eq!(found, cut as u64),
                e => panic!("{cut} bytes: {e:?}"),
            }
        }
        for cut in [4096, 4097, (4096 + len) / 2, len - 1] {
            match err(bytes[..cut].to_vec()) {
                Error::WrongLength { expected, found } => {
                    assert_eq!((expected, found), (len as u64, cut as u64), "{cut} bytes")
                }
                e => panic!("{cut} bytes: {e:?}"),
            }
        }
    }
}

#[test]
fn extra_bytes() {
    for bytes in tables() {
        let len = bytes.len() as u64;
        for extra in [&[0u8][..], &[7], &[0; 4096]] {
            let mut b = bytes.clone();
            b.extend_from_slice(extra);
            match err(b) {
                Error::WrongLength { expected, found } => {
                    assert_eq!((expected, found), (len, len + extra.len() as u64))
                }
                e => panic!("{e:?}"),
            }
        }
    }
}

#[test]
fn wrong_magic() {
    for bytes in tables() {
        for i in 0..8 {
            let mut b = bytes.clone();
            b[i] ^= 0x20;
            assert!(matches!(err(b), Error::BadMagic), "magic byte {i}");
        }
        let mut b = bytes.clone();
        b[..8].copy_from_slice(b"SLIDETBX");
        assert!(matches!(err(b), Error::BadMagic));
        assert!(matches!(err(b"SLIDETB".to_vec()), Error::BadMagic));
        assert!(matches!(err(vec![0; 5000]), Error::BadMagic));
    }
}

#[test]
fn other_versions() {
    for bytes in tables() {
        for version in [0, VERSION + 1, 2, 100, u32::MAX] {
            if version == VERSION {
                continue;
            }
            let mut b = bytes.clone();
            write_u32(&mut b, OFF_VERSION, version);
            // rejected for the version, before the header checksum is looked at
            match err(b.clone()) {
                Error::UnsupportedVersion { found, expected } => {
                    assert_eq!((found, expected), (version, VERSION))
                }
                e => panic!("version {version}: {e:?}"),
            }
            reseal_header(&mut b);
            assert!(matches!(err(b), Error::UnsupportedVersion { .. }));
        }
    }
}

#[test]
fn any_flipped_header_byte_is_a_corrupt_header() {
    for bytes in tables() {
        // every byte after magic and version: fields, reserved bytes, histogram, padding
        for at in (12..PAYLOAD_OFFSET).step_by(7).chain([
            OFF_PAYLOAD,
            OFF_ROWS,
            OFF_COLS,
            OFF_ENCODING,
            OFF_MAX_DEPTH,
            OFF_GOAL,
            OFF_GOAL + 3,
            OFF_COUNT,
            OFF_PAYLOAD_CRC,
            OFF_HEADER_CRC,
            OFF_HEADER_CRC + 3,
            OFF_HISTOGRAM,
            OFF_HISTOGRAM + 8 * 5,
            OFF_HISTOGRAM + 8 * 255 + 7,
            PAYLOAD_OFFSET - 1,
        ]) {
            for bit in [0x01, 0x80] {
                let mut b = bytes.clone();
                b[at] ^= bit;
                match err(b) {
                    Error::CorruptHeader(msg) => {
                        assert!(msg.contains("checksum"), "byte {at}: {msg}")
                    }
                    e => panic!("byte {at} flipped: {e:?}"),
                }
            }
        }
    }
}

/// Inconsistent headers with a valid header checksum: each field is checked on its own.
#[test]
fn inconsistent_headers_with_valid_checksums() {
    let bytes = built(3, 3).to_vec();
    type Edit = Box<dyn Fn(&mut Vec<u8>)>;
    let edits: Vec<(&str, Edit)> = vec![
        ("payload offset", Box::new(|b| write_u32(b, OFF_PAYLOAD, 4097))),
        ("one row", Box::new(|b| b[OFF_ROWS] = 1)),
        ("no columns", Box::new(|b| b[OFF_COLS] = 0)),
        ("128 rows", Box::new(|b| b[OFF_ROWS] = 128)),
        ("too many cells", Box::new(|b| b[OFF_ROWS] = 5)),
        ("4x4", Box::new(|b| (b[OFF_ROWS], b[OFF_COLS]) = (4, 4))),
        ("encoding 0", Box::new(|b| b[OFF_ENCODING] = 0)),
        ("encoding 2", Box::new(|b| b[OFF_ENCODING] = 2)),
        ("goal with a repeated tile", Box::new(|b| b[OFF_GOAL] = b[OFF_GOAL + 1])),
        ("goal tile out of range", Box::new(|b| b[OFF_GOAL + 8] = 9)),
        ("entry count", Box::new(|b| b[OFF_COUNT] ^= 1)),
        ("max depth 255", Box::new(|b| b[OFF_MAX_DEPTH] = UNREACHED)),
        ("max depth too small", Box::new(|b| b[OFF_MAX_DEPTH] = 30)),
        ("max depth too large", Box::new(|b| b[OFF_MAX_DEPTH] = 32)),
        ("histogram sum", Box::new(|b| b[OFF_HISTOGRAM + 8 * 5] ^= 1)),
        ("two goals", Box::new(|b| b[OFF_HISTOGRAM] = 2)),
        ("two goals, same sum", Box::new(|b| (b[OFF_HISTOGRAM], b[OFF_HISTOGRAM + 8]) = (2, b[OFF_HISTOGRAM + 8] - 1))),
        ("no goal, same sum", Box::new(|b| (b[OFF_HISTOGRAM], b[OFF_HISTOGRAM + 8]) = (0, b[OFF_HISTOGRAM + 8] + 1))),
        ("an empty depth", Box::new(|b| b[OFF_HISTOGRAM + 8 * 3..OFF_HISTOGRAM + 8 * 4].fill(0))),
        ("states beyond the max depth", Box::new(|b| b[OFF_HISTOGRAM + 8 * 200] = 1)),
        ("histogram overflow", Box::new(|b| b[OFF_HISTOGRAM + 8 * 2..OFF_HISTOGRAM + 8 * 4].fill(0xff))),
    ];
    for (what, edit) in edits {
        let mut b = bytes.clone();
        edit(&mut b);
        reseal_header(&mut b);
        match Header::parse(&b) {
            Err(Error::CorruptHeader(_)) => {}
            other => panic!("{what}: expected CorruptHeader from Header::parse, got {other:?}"),
        }
        assert!(matches!(err(b), Error::CorruptHeader(_)), "{what}");
    }
    // resealing an untouched header changes nothing
    let mut b = bytes.clone();
    reseal_header(&mut b);
    assert_eq!(b, bytes);
    Table::new(b).unwrap();
}

/// A valid header for another shape than the payload length says: the length decides.
#[test]
fn header_of_another_table() {
    let mut b = built(3, 3)[..PAYLOAD_OFFSET].to_vec();
    b.extend_from_slice(&built(2, 3)[PAYLOAD_OFFSET..]);
    assert!(
        matches!(err(b), Error::WrongLength { expected, found } if expected == 4096 + 181_440 && found == 4096 + 360)
    );
}

#[test]
fn a_flipped_payload_byte_fails_the_checksum_on_open() {
    for bytes in tables() {
        assert!(bytes.len() as u64 <= CHECK_ON_OPEN_LIMIT);
        let expected_crc = read_u32(&bytes, OFF_PAYLOAD_CRC);
        let middle = PAYLOAD_OFFSET + (bytes.len() - PAYLOAD_OFFSET) / 2;
        for at in [PAYLOAD_OFFSET, PAYLOAD_OFFSET + 1, middle, bytes.len() - 1] {
            let mut b = bytes.clone();
            b[at] ^= 0x04;
            match err(b.clone()) {
                Error::ChecksumMismatch { expected, found } => {
                    assert_eq!(expected, expected_crc);
                    assert_eq!(found, crc32fast::hash(&b[PAYLOAD_OFFSET..]));
                    assert_ne!(found, expected);
                }
                e => panic!("payload byte {at}: {e:?}"),
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Corruption behind consistent checksums

/// The table with entry `k` set to `value` and both checksums made consistent.
fn corrupted(bytes: &[u8], k: u64, value: u8) -> Table<Vec<u8>> {
    let mut b = bytes.to_vec();
    b[PAYLOAD_OFFSET + k as usize] = value;
    reseal_payload(&mut b);
    Table::new(b).expect("checksums are consistent, so the table opens")
}

/// Indices of the neighbours of state `k`.
fn neighbours(index: &StateIndex, k: u64) -> Vec<u64> {
    let mut out = Vec::new();
    index.for_each_neighbor(&index.unrank(k), k, |_, j| out.push(j));
    out
}

fn corrupt_index(e: Error) -> u64 {
    match e {
        Error::Corrupt { index, .. } => index,
        e => panic!("expected Error::Corrupt, got {e:?}"),
    }
}

#[test]
fn reseal_payload_helper_is_consistent() {
    let mut b = built(2, 3).to_vec();
    reseal_payload(&mut b);
    assert_eq!(b, built(2, 3), "resealing an untouched table is the identity");
    b[PAYLOAD_OFFSET + 10] ^= 1;
    assert!(matches!(Table::new(b.clone()), Err(Error::ChecksumMismatch { .. })));
    reseal_payload(&mut b);
    let t = Table::new(b).unwrap();
    assert_eq!(t.header().payload_crc, crc32fast::hash(t.payload()));
    t.check_payload_crc().unwrap();
}

/// On 2x3, every entry changed to every other value: verify names the entry (or, when only the
/// pair is known to be inconsistent, a neighbour of it); the unreached marker and values above the
/// maximum depth name the entry itself and are reported by `distance` too.
#[test]
fn verify_catches_every_single_entry_change_on_2x3() {
    let bytes = built(2, 3);
    let good = Table::new(bytes.to_vec()).unwrap();
    let max = good.header().max_depth;
    for k in 0..good.index().len() {
        let d = good.payload()[k as usize];
        for value in (0..=max + 2).chain([100, UNREACHED - 1, UNREACHED]) {
            if value == d {
                continue;
            }
            let t = corrupted(bytes, k, value);
            let i = corrupt_index(t.verify().unwrap_err());
            if value > max {
                assert_eq!(i, k, "entry {k} set to {value}");
                let board = t.index().board(k);
                assert_eq!(corrupt_index(t.distance(&board).unwrap_err()), k);
                assert_eq!(corrupt_index(t.solve(&board).unwrap_err()), k);
            } else {
                assert!(i == k || neighbours(t.index(), k).contains(&i), "entry {k} set to {value}: verify names {i}");
            }
        }
    }
}

#[test]
fn verify_names_the_first_bad_index_on_3x3() {
    let bytes = built(3, 3);
    let good = Table::new(bytes.to_vec()).unwrap();
    for k in [0u64, 1, 4096, 90_000, 181_439] {
        let t = corrupted(bytes, k, UNREACHED);
        match t.verify() {
            Err(Error::Corrupt { index, board, detail }) => {
                assert_eq!(index, k);
                assert_eq!(board, t.index().board(k).to_string());
                assert!(detail.contains("255"), "{detail}");
            }
            other => panic!("{other:?}"),
        }
        // of two bad entries, the one the scan in index order meets first (at itself or at a
        // neighbour) is named
        let k2 = (k + 50_000) % 181_440;
        let mut b = t.as_bytes().to_vec();
        b[PAYLOAD_OFFSET + k2 as usize] = 200;
        reseal_payload(&mut b);
        let t2 = Table::new(b).unwrap();
        let met = |x: u64| neighbours(t.index(), x).into_iter().chain([x]).min().unwrap();
        let expected = if met(k) < met(k2) { k } else { k2 };
        assert_ne!(met(k), met(k2));
        assert_eq!(corrupt_index(t2.verify().unwrap_err()), expected);
    }
    // the goal's entry raised: found at the goal, or at a neighbour scanned earlier that is left
    // with no neighbour one closer
    let goal = good.index().index(good.goal()).unwrap();
    let t = corrupted(bytes, goal, 2);
    let i = corrupt_index(t.verify().unwrap_err());
    assert!(i == goal || neighbours(t.index(), goal).contains(&i));
    assert_eq!(i, neighbours(t.index(), goal).into_iter().chain([goal]).min().unwrap());
    corrupt_index(t.solve(&t.index().board(i)).unwrap_err());
    // a second goal: a state at distance 2 set to 0
    let k = good.payload().iter().position(|&d| d == 2).unwrap() as u64;
    let t = corrupted(bytes, k, 0);
    assert_eq!(corrupt_index(t.verify().unwrap_err()), k);
    assert!(t.solve(&t.index().board(k)).is_err());
}

/// A wrong histogram with a consistent payload and checksums: the payload is right, the header
/// lies, and verify says so.
#[test]
fn verify_checks_the_histogram() {
    let mut b = built(2, 3).to_vec();
    let mut header = Header::parse(&b).unwrap();
    header.histogram[3] += 1;
    header.histogram[4] -= 1;
    b[..PAYLOAD_OFFSET].copy_from_slice(&header.to_bytes());
    let t = Table::new(b).unwrap();
    assert!(matches!(t.verify(), Err(Error::CorruptHeader(_))));
}

/// Hill-climbing never returns a wrong answer from a corrupted table: for every corrupted entry
/// of 2x3 and every starting board, `solve` either reports corruption or returns an optimal
/// solution that really reaches the goal; started on the corrupted board itself it always
/// reports corruption.
#[test]
fn solve_reports_corruption_instead_of_wrong_answers() {
    let bytes = built(2, 3);
    let good = Table::new(bytes.to_vec()).unwrap();
    let len = good.index().len();
    let mut detected = 0;
    for k in 0..len {
        let d = good.payload()[k as usize];
        for value in [d.wrapping_sub(2), d.wrapping_sub(1), d + 1, d + 2] {
            if value > good.header().max_depth {
                continue;
            }
            let t = corrupted(bytes, k, value);
            for s in 0..len {
                let board = good.index().board(s);
                match t.solve(&board) {
                    Ok(Some(sol)) => {
                        assert_ne!(s, k, "entry {k} set to {value}: solve from it returned {sol:?}");
                        assert_eq!(sol.moves.len() as u8, good.payload()[s as usize]);
                        let mut b = board.clone();
                        for &m in &sol.moves {
                            b.apply(m).unwrap();
                        }
                        assert_eq!(&b, good.goal());
                    }
                    Ok(None) => panic!("a solvable board reported unsolvable"),
                    Err(e) => {
                        corrupt_index(e);
                        detected += 1;
                    }
                }
            }
        }
    }
    assert!(detected > 0);
}

/// The same on 3x3 for a sample of entries, starting from the corrupted board and from boards
/// whose hill-climb path goes through it.
#[test]
fn solve_reports_corruption_on_3x3() {
    let bytes = built(3, 3);
    let good = Table::new(bytes.to_vec()).unwrap();
    let index = good.index();
    let start = Board::parse(Shape::EIGHT, "8 6 7 2 5 4 3 0 1").unwrap();
    // the states along the optimal solution of one of the hardest boards
    let sol = good.solve(&start).unwrap().unwrap();
    let mut path = vec![start.clone()];
    for &m in &sol.moves {
        let next = path.last().unwrap().moved(m).unwrap();
        path.push(next);
    }
    for (step, on_path) in path.iter().enumerate().skip(1).step_by(3) {
        if on_path == good.goal() {
            continue;
        }
        let k = index.index(on_path).unwrap();
        let d = good.payload()[k as usize];
        for value in [d - 1, d + 1, d + 3, 0, 31] {
            if value == d {
                continue;
            }
            let t = corrupted(bytes, k, value);
            assert!(t.verify().is_err());
            // from the corrupted state itself
            corrupt_index(t.solve(on_path).unwrap_err());
            // from the start of the path: an error, or a correct optimal solution
            match t.solve(&start) {
                Err(e) => {
                    corrupt_index(e);
                }
                Ok(Some(s)) => {
                    assert_eq!(s.moves.len(), 31, "step {step} set to {value}");
                    let mut b = start.clone();
                    for &m in &s.moves {
                        b.apply(m).unwrap();
                    }
                    assert_eq!(&b, good.goal());
                }
                Ok(None) => panic!("solvable board reported unsolvable"),
            }
        }
    }
    // lowering an entry on the path by two makes the climb from the start fail, not shortcut
    let k = index.index(&path[10]).unwrap();
    let t = corrupted(bytes, k, good.payload()[k as usize] - 2);
    corrupt_index(t.solve(&start).unwrap_err());
    corrupt_index(t.optimal_moves(&path[9]).unwrap_err());
    // distance cannot tell a plausible wrong value, but does tell an impossible one
    let t = corrupted(bytes, k, UNREACHED);
    assert_eq!(corrupt_index(t.distance(&path[10]).unwrap_err()), k);
    assert_eq!(corrupt_index(t.solve(&start).unwrap_err()), k);
    assert_eq!(t.distance(&Board::parse(Shape::EIGHT, "2 1 3 4 5 6 7 8 0").unwrap()).unwrap(), None);
    assert!(matches!(
        t.distance(&Goal::BlankLast.board(Shape::new(2, 2).unwrap()).unwrap()),
        Err(Error::ShapeMismatch { .. })
    ));
}

// ---------------------------------------------------------------------------------------------
// Writing and opening files

#[test]
fn write_into_a_missing_directory_is_an_io_error() {
    let dir = tempfile::tempdir().unwrap();
    let t = Table::new(built(2, 3).to_vec()).unwrap();
    let path = dir.path().join("no").join("such").join("dir").join("t.table");
    match t.write(&path) {
        Err(Error::Io { .. }) => {}
        other => panic!("{other:?}"),
    }
    assert!(!path.exists());
    assert!(!dir.path().join("no").exists());
}

#[test]
fn write_replaces_an_existing_file_and_leaves_no_temporary_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.table");
    std::fs::write(&path, b"old contents").unwrap();
    let small = Table::new(built(2, 3).to_vec()).unwrap();
    small.write(&path).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), built(2, 3));
    let big = Table::new(built(3, 3).to_vec()).unwrap();
    big.write(&path).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), built(3, 3));
    small.write(&path).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), built(2, 3), "a shorter table replaces a longer one whole");
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, ["t.table"]);
    // and the file opens memory-mapped
    let opened = open(&path).unwrap();
    assert_eq!(opened.as_bytes(), built(2, 3));
    assert_eq!(opened.histogram(), small.histogram());
    opened.verify().unwrap();
}

#[test]
fn a_failed_write_leaves_what_was_there() {
    let dir = tempfile::tempdir().unwrap();
    let t = Table::new(built(2, 3).to_vec()).unwrap();
    // the target is a directory (holding a file): an error, and the directory is untouched
    let target = dir.path().join("target");
    std::fs::create_dir(&target).unwrap();
    std::fs::write(target.join("inside"), b"keep me").unwrap();
    assert!(matches!(t.write(&target), Err(Error::Io { .. })));
    assert!(target.is_dir());
    assert_eq!(std::fs::read(target.join("inside")).unwrap(), b"keep me");
    // the target's parent is a file: an error, and the file is untouched
    let file = dir.path().join("old.table");
    std::fs::write(&file, b"old table").unwrap();
    assert!(matches!(t.write(&file.join("t.table")), Err(Error::Io { .. })));
    assert_eq!(std::fs::read(&file).unwrap(), b"old table");
    let mut names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    names.sort();
    assert_eq!(names, ["old.table", "target"], "no temporary files are left behind");
}

#[test]
fn open_errors() {
    let dir = tempfile::tempdir().unwrap();
    assert!(matches!(open(&dir.path().join("missing.table")), Err(Error::Io { .. })));
    let path = dir.path().join("empty.table");
    std::fs::write(&path, b"").unwrap();
    assert!(matches!(open(&path), Err(Error::BadMagic)));
    let path = dir.path().join("short.table");
    std::fs::write(&path, &built(2, 3)[..4200]).unwrap();
    assert!(matches!(open(&path), Err(Error::WrongLength { .. })));
    let path = dir.path().join("bad.table");
    let mut b = built(2, 3).to_vec();
    b[PAYLOAD_OFFSET + 7] ^= 1;
    std::fs::write(&path, &b).unwrap();
    assert!(matches!(open(&path), Err(Error::ChecksumMismatch { .. })));
}

// ---------------------------------------------------------------------------------------------
// Property tests

/// A consistent header: a table shape, any goal, any histogram of positive counts with one goal
/// summing to the entry count, any payload CRC.
fn header_strategy() -> impl Strategy<Value = Header> {
    prop::sample::select(TABLE_SHAPES.to_vec()).prop_flat_map(|(rows, cols)| {
        let shape = Shape::new(rows, cols).unwrap();
        let n = rows * cols;
        let entries = FACT[n] / 2;
        // at least one move: every table shape has states other than the goal
        let max_depth_limit = (entries - 1).min(254);
        let goal = Just((0..n as u16).collect::<Vec<u16>>()).prop_shuffle();
        (goal, 1..=max_depth_limit, prop::collection::vec(0u64..1000, 254), any::<u32>()).prop_map(
            move |(goal, max_depth, weights, payload_crc)| {
                let depths = max_depth as usize;
                let mut histogram = vec![1u64; depths + 1];
                // spread the remaining states over depths 1..=max_depth, at least one each
                let rest = entries - 1 - max_depth;
                let w = &weights[..depths];
                let total: u64 = w.iter().sum::<u64>().max(1);
                let mut given = 0;
                for (h, &wi) in histogram[1..].iter_mut().zip(w) {
                    let share = rest * wi / total;
                    *h += share;
                    given += share;
                }
                histogram[depths] += rest - given;
                Header {
                    shape,
                    goal: Board::new(shape, goal).unwrap(),
                    encoding: Encoding::DistanceByte,
                    entries,
                    max_depth: max_depth as u8,
                    histogram,
                    payload_crc,
                    group: Vec::new(),
                }
            },
        )
    })
}

/// A valid 2x3 table to mutate, with a list of edits: (offset, new byte).
fn mutation_strategy() -> impl Strategy<Value = (Vec<(usize, u8)>, usize, bool)> {
    let len = built(2, 3).len();
    (prop::collection::vec((0..len, any::<u8>()), 0..8), 0..len + 10, any::<bool>())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn header_round_trips(header in header_strategy()) {
        prop_assert_eq!(header.histogram.iter().sum::<u64>(), header.entries);
        let bytes = header.to_bytes();
        prop_assert_eq!(bytes.len(), PAYLOAD_OFFSET);
        prop_assert_eq!(&Header::parse(&bytes).unwrap(), &header);
        prop_assert_eq!(header.file_len(), PAYLOAD_OFFSET as u64 + header.entries);
        // the header alone is not a table: the payload is missing
        let is_wrong_length = matches!(Table::new(bytes.clone()), Err(Error::WrongLength { .. }));
        prop_assert!(is_wrong_length);
        // one count more and the histogram no longer sums to the entry count
        let mut broken = header.clone();
        let last = broken.histogram.len() - 1;
        broken.histogram[last] += 1;
        let is_corrupt = matches!(Header::parse(&broken.to_bytes()), Err(Error::CorruptHeader(_)));
        prop_assert!(is_corrupt);
    }

    /// Random bytes never make `Table::new` panic, with or without a plausible start.
    #[test]
    fn garbage_never_panics(mut garbage in prop::collection::vec(any::<u8>(), 0..6000), prefix in 0usize..3) {
        if prefix >= 1 && garbage.len() >= 8 {
            garbage[..8].copy_from_slice(&MAGIC);
        }
        if prefix >= 2 && garbage.len() >= PAYLOAD_OFFSET {
            write_u32(&mut garbage, OFF_VERSION, VERSION);
            reseal_header(&mut garbage);
        }
        prop_assert!(Table::new(garbage).is_err());
    }

    /// Random edits, truncations and extensions of a real table never panic, and when the
    /// result still opens and verifies it answers like the original.
    #[test]
    fn mutated_tables_never_panic((edits, cut, reseal) in mutation_strategy()) {
        let original = built(2, 3);
        let mut b = original.to_vec();
        for &(at, v) in &edits {
            b[at] = v;
        }
        b.resize(cut, 0);
        if reseal && b.len() >= PAYLOAD_OFFSET {
            reseal_header(&mut b);
            if Header::parse(&b).is_ok() {
                reseal_payload(&mut b);
            }
        }
        if let Ok(t) = Table::new(b) {
            let verified = t.verify().is_ok();
            let index = t.index().clone();
            for i in (0..index.len()).step_by(17) {
                let board = index.board(i);
                let _ = t.distance(&board);
                if let Ok(Some(sol)) = t.solve(&board) {
                    let mut walk = board.clone();
                    for &m in &sol.moves {
                        walk.apply(m).unwrap();
                    }
                    prop_assert_eq!(&walk, t.goal());
                }
            }
            if verified {
                prop_assert_eq!(t.payload(), &original[PAYLOAD_OFFSET..]);
            }
        }
    }

    /// Random payloads behind consistent checksums: opening succeeds, nothing panics, verify fails.
    #[test]
    fn garbage_payloads_fail_verification(payload in prop::collection::vec(any::<u8>(), 360)) {
        let mut b = built(2, 3).to_vec();
        b[PAYLOAD_OFFSET..].copy_from_slice(&payload);
        reseal_payload(&mut b);
        let t = Table::new(b).unwrap();
        prop_assert!(t.verify().is_err());
        for i in 0..t.index().len() {
            let board = t.index().board(i);
            let _ = t.distance(&board);
            let _ = t.optimal_moves(&board);
            if let Ok(Some(sol)) = t.solve(&board) {
                let mut walk = board.clone();
                for &m in &sol.moves {
                    walk.apply(m).unwrap();
                }
                prop_assert_eq!(&walk, t.goal());
            }
        }
    }
}

/// A table built straight into its file is the same bytes as one built in memory, opens, is an
/// ordinary file (0666 less the umask, not a temporary file's 0600), and replaces an older file
/// only once complete.
#[test]
fn build_file_writes_the_same_table_as_build() {
    let goal = Goal::Snail.board(Shape::EIGHT).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("snail.table");
    std::fs::write(&path, b"an older file").unwrap();
    let mut levels = 0;
    let on_disk = slidetable::build_file(&goal, &path, |_| levels += 1).unwrap();
    let in_memory = build(&goal, |_| {}).unwrap();
    assert_eq!(on_disk.as_bytes(), in_memory.as_bytes());
    assert_eq!(levels, 31, "one progress call per depth 0..=30");
    assert_eq!(std::fs::read(&path).unwrap(), in_memory.as_bytes());
    assert_eq!(open(&path).unwrap().header(), in_memory.header());
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, ["snail.table"], "no temporary file is left behind");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // SAFETY: umask only swaps the process's file mode mask; it is put back at once
        let umask = unsafe {
            let old = libc::umask(0o022);
            libc::umask(old);
            old
        };
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o666 & !(umask as u32));
    }
}

/// A build into a directory that does not exist fails before any search, with the path named.
#[test]
fn build_file_into_a_missing_directory_fails_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("missing").join("x.table");
    let goal = Goal::BlankLast.board(Shape::new(2, 3).unwrap()).unwrap();
    let mut levels = 0;
    let err = slidetable::build_file(&goal, &path, |_| levels += 1).unwrap_err();
    assert!(matches!(err, Error::Io { .. }), "{err:?}");
    assert_eq!(levels, 0);
    assert!(err.to_string().contains("missing"), "{err}");
}

/// The batch walk (`solve_index`, from an index, on index-only neighbours) against `solve` (from
/// a board): on every 2x3 table with one entry corrupted to each of several wrong values, from
/// every start, both give the same moves or both report corruption.
#[test]
fn solve_index_agrees_with_solve_on_corrupted_tables() {
    let good = built(2, 3).to_vec();
    let entries = FACT[6] / 2;
    let mut agreed_errors = 0;
    for k in 0..entries as usize {
        let d = good[PAYLOAD_OFFSET + k];
        for wrong in [0u8, d.wrapping_sub(1), d + 1, d + 2, UNREACHED] {
            if wrong == d {
                continue;
            }
            let mut b = good.clone();
            b[PAYLOAD_OFFSET + k] = wrong;
            reseal_payload(&mut b);
            let t = Table::new(b).unwrap();
            for i in 0..entries {
                let slow = t.solve(&t.index().board(i));
                let mut moves = Vec::new();
                let fast = t.solve_index(i, &mut moves);
                match (slow, fast) {
                    (Ok(Some(s)), Ok(())) => assert_eq!(s.moves, moves, "entry {k} = {wrong}, start {i}"),
                    (Err(_), Err(_)) => agreed_errors += 1,
                    (slow, fast) => panic!("entry {k} = {wrong}, start {i}: solve {slow:?}, solve_index {fast:?}"),
                }
            }
        }
    }
    assert!(agreed_errors > 0);
}

/// A header whose checksum is right but whose reserved bytes are not zero (a newer version's
/// field) is refused, for both kinds of table, at every reserved offset.
#[test]
fn reserved_header_bytes_must_be_zero() {
    let full = built(2, 3).to_vec();
    let goal = Goal::BlankFirst.board(Shape::new(3, 3).unwrap()).unwrap();
    let pattern = slidetable::table::pattern::build_pattern(&goal, &[1, 2], |_| {}).unwrap().as_bytes().to_vec();
    // 2x3 goal: 6 cells, so goal bytes 26..36 are unused; the pattern table has 9 cells, 2 tiles
    for (bytes, offsets) in [
        (&full, vec![26, 35, 36, 39, 56, 63, 2112, 3000, 4095]),
        (&pattern, vec![20, 35, 36, 56, 2114, 2115, 2118, 2179, 2189, 2243, 2244, 4095]),
    ] {
        for at in offsets {
            let mut b = bytes.clone();
            b[at] = 0x5A;
            reseal_header(&mut b);
            let e = Header::parse(&b).unwrap_err();
            assert!(e.to_string().contains(&format!("reserved header byte {at} is 0x5a")), "{at}: {e}");
            assert!(e.to_string().contains("newer version"), "{e}");
        }
        Header::parse(bytes).unwrap();
    }
}

/// An inconsistent pair of neighbours names both entries, since either may be the wrong one.
#[test]
fn an_inconsistent_pair_names_both_entries() {
    let bytes = built(3, 3);
    let good = Table::new(bytes.to_vec()).unwrap();
    let k = good.payload().iter().position(|&d| d == 10).unwrap() as u64;
    let t = corrupted(bytes, k, 14);
    match t.verify().unwrap_err() {
        Error::Corrupt { index, detail, .. } => {
            let other: u64 = if index == k {
                detail.split("next to index ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap()
            } else {
                assert!(detail.contains(&format!("next to index {k} ")), "{detail}");
                k
            };
            assert!(neighbours(t.index(), k).contains(&if index == k { other } else { index }), "{index} {detail}");
            assert!(detail.contains("one of the two entries is wrong"), "{detail}");
        }
        e => panic!("{e:?}"),
    }
}

#[test]
fn a_stopped_build_writes_nothing_and_leaves_the_old_file() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.table");
    std::fs::write(&path, b"the user's old file").unwrap();
    let goal = slidetable::Goal::BlankLast.board(slidetable::Shape::EIGHT).unwrap();
    let stop = AtomicBool::new(false);
    let mut levels = 0;
    let err = slidetable::table::build_file_until(
        &goal,
        &path,
        |p| {
            levels += 1;
            if p.depth == 5 {
                stop.store(true, Ordering::Relaxed);
            }
        },
        &stop,
    )
    .err()
    .unwrap();
    assert!(matches!(err, slidetable::Error::BuildCancelled { depth: 5 }), "{err}");
    assert_eq!(levels, 6);
    assert_eq!(std::fs::read(&path).unwrap(), b"the user's old file");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file left");
    // in memory too
    let stop = AtomicBool::new(true);
    assert!(matches!(
        slidetable::table::build_until(&goal, |_| {}, &stop),
        Err(slidetable::Error::BuildCancelled { depth: 0 })
    ));
}

/// An output name that is not a regular file is refused, never renamed over (as root, `-o
/// /dev/full` replaced the device with a table; a pipe stands in for it here); a symbolic link is
/// followed, and the file it names is replaced, the link kept.
#[cfg(unix)]
#[test]
fn a_device_is_never_replaced_and_a_link_is_written_through() {
    use std::os::unix::fs::FileTypeExt;
    let goal = Goal::BlankLast.board(Shape::new(2, 3).unwrap()).unwrap();
    let table = build(&goal, |_| {}).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let pipe = dir.path().join("pipe.table");
    let c_path = std::ffi::CString::new(pipe.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo reads the NUL-terminated path only
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o644) }, 0);
    match table.write(&pipe) {
        Err(Error::Io { source, .. }) => assert!(source.to_string().contains("not a regular file"), "{source}"),
        other => panic!("a pipe: {other:?}"),
    }
    assert!(std::fs::metadata(&pipe).unwrap().file_type().is_fifo(), "the pipe is still a pipe");
    let real = dir.path().join("real.table");
    std::fs::write(&real, b"an older file").unwrap();
    let link = dir.path().join("link.table");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    table.write(&link).unwrap();
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read(&real).unwrap(), table.as_bytes());
    // a link made before its file (to another disk, say): the file is made where it points
    let ahead = dir.path().join("ahead.table");
    std::os::unix::fs::symlink("later.table", &ahead).unwrap();
    table.write(&ahead).unwrap();
    assert!(std::fs::symlink_metadata(&ahead).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read(dir.path().join("later.table")).unwrap(), table.as_bytes());
    // a link in a loop is refused, and stays a link
    let looped = dir.path().join("loop.table");
    std::os::unix::fs::symlink("loop.table", &looped).unwrap();
    match table.write(&looped) {
        Err(Error::Io { source, .. }) => assert!(source.to_string().contains("leads nowhere"), "{source}"),
        other => panic!("a link in a loop: {other:?}"),
    }
    assert!(std::fs::symlink_metadata(&looped).unwrap().file_type().is_symlink());
}
