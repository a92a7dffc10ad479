//! Loading stored matches (docs/server.md): whatever a database file holds, the server
//! starts on it, and each match whose row cannot be read or replayed is reported and
//! skipped; never a panic, never a refused start.
//!
//! Each input edits a database holding two good tic-tac-toe matches with decisions. An
//! input is a sequence of edits separated by NUL bytes: the first byte of each picks the
//! match, the table and the column, the second the type of the value written (null, an
//! integer, a real, text or a blob), the rest is the value. Written with SQL, as a damaged
//! or hand-edited file would be: SQLite takes any type in any column.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rusqlite::types::Value;
use std::collections::BTreeMap;
use tgdl_reference::TicTacToe;
use tgdl_runtime::Game;
use tgdl_server::store::{Store, StoredMatch};
use tgdl_server::{Config, Server};

const MATCH_COLUMNS: &[&str] =
    &["id", "game", "players", "seed", "seats", "tokens", "created", "params", "updated", "finished"];
const DECISION_COLUMNS: &[&str] = &["match_id", "n", "option", "player"];

fn value(kind: u8, bytes: &[u8]) -> Value {
    match kind % 5 {
        0 => Value::Null,
        1 => {
            let mut b = [0u8; 8];
            b[..bytes.len().min(8)].copy_from_slice(&bytes[..bytes.len().min(8)]);
            // Small numbers most of the time: options, players and counts near the edges.
            if bytes.len() <= 1 {
                Value::Integer(i64::from(bytes.first().copied().unwrap_or(0)) - 4)
            } else {
                Value::Integer(i64::from_le_bytes(b))
            }
        }
        2 => {
            let mut b = [0u8; 8];
            b[..bytes.len().min(8)].copy_from_slice(&bytes[..bytes.len().min(8)]);
            Value::Real(f64::from_le_bytes(b))
        }
        3 => Value::Text(String::from_utf8_lossy(bytes).into_owned()),
        _ => Value::Blob(bytes.to_vec()),
    }
}

fuzz_target!(|data: &[u8]| {
    let dir = std::env::temp_dir().join(format!("tgdl-fuzz-stored-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let path = dir.join("matches.db");
    let store = Store::open(&path).expect("a new database");
    for (id, decisions) in [("a", vec![4, 0, 3]), ("b", vec![0, 1])] {
        let m = StoredMatch {
            id: id.into(),
            game: TicTacToe::info().name.into(),
            players: 2,
            seed: 7,
            seats: vec!["human".into(), "human".into()],
            tokens: vec![Some(format!("{id}0")), Some(format!("{id}1"))],
            decisions: vec![],
            deciders: vec![],
            params: BTreeMap::new(),
        };
        store.insert_match(&m).expect("a match is stored");
        for (n, option) in decisions.into_iter().enumerate() {
            store.insert_decision(id, n, (n % 2) as u32, option, false).expect("a decision is stored");
        }
    }
    store.close().expect("the database closes");
    drop(store);
    {
        let conn = rusqlite::Connection::open(&path).expect("the database opens");
        for edit in data.split(|&b| b == 0).take(16) {
            let [target, kind, rest @ ..] = edit else { continue };
            let id = if target & 1 == 0 { "a" } else { "b" };
            let pick = usize::from(target >> 1);
            let v = value(*kind, rest);
            // Failing edits (a constraint) leave the file as it was, as SQLite does.
            let _ = if pick < MATCH_COLUMNS.len() {
                conn.execute(
                    &format!("UPDATE matches SET {} = ?1 WHERE id = ?2", MATCH_COLUMNS[pick]),
                    (v, id),
                )
            } else {
                let column = DECISION_COLUMNS[pick % DECISION_COLUMNS.len()];
                conn.execute(
                    &format!("UPDATE decisions SET {column} = ?1 WHERE match_id = ?2 AND n = 0"),
                    (v, id),
                )
            };
        }
    }
    let store = Store::open(&path).expect("a database it wrote opens again");
    // The server starts, whatever the rows hold, unless they say they are another game's.
    let started = runtime().block_on(async { Server::<TicTacToe>::new(store, Config::default()).map(drop) });
    if let Err(e) = started {
        assert!(e.starts_with("the database holds matches of the game"), "the server refused to start: {e}");
    }
});

fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: std::sync::OnceLock<tokio::runtime::Runtime> = std::sync::OnceLock::new();
    RT.get_or_init(|| tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime"))
}
