//! The durable store: one SQLite file holding every match (game, player count, seed,
//! seats, tokens, when it last changed and when it finished) and every decision taken in
//! it, in order.
//!
//! The database runs in WAL mode with `synchronous = FULL`: a decision's `INSERT` is its
//! own transaction, and once it returns the decision survives a killed process (and a
//! power cut). The server answers a request only after that.
//!
//! What is written is read back by the same functions ([`encode`] and [`decode`]), and the
//! server checks a new match through them before storing it (`StoredMatch::round_trip`):
//! nothing is stored that this store could not read again.

use rusqlite::{Connection, OptionalExtension, params};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// A match as stored: everything needed to rebuild it by replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredMatch {
    pub id: String,
    /// The game's name (`GameInfo::name`): a database serves one game.
    pub game: String,
    pub players: u32,
    pub seed: u128,
    /// One seat name per player (`human`, `random`, `mcts:500`, ...).
    pub seats: Vec<String>,
    /// The join token of each human seat.
    pub tokens: Vec<Option<String>>,
    /// The option chosen at each decision, in order.
    pub decisions: Vec<usize>,
    /// Who took each decision (in a round of simultaneous choices, any of its players may
    /// choose first). `None` for rows stored before the store recorded it: the player
    /// whose turn it was.
    pub deciders: Vec<Option<u32>>,
    /// The values of the game's parameters it was created with, by name (none: defaults).
    pub params: BTreeMap<String, String>,
}

/// A stored match as [`Store::load_all`] reads it: the match, or why its row cannot be
/// read (the other matches are read all the same).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    pub id: String,
    pub stored: Result<StoredMatch, String>,
    /// Whether the store records it as finished.
    pub finished: bool,
}

/// Why the store failed.
#[derive(Debug)]
pub struct StoreError(pub String);

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StoreError {}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError(format!("database error: {e}"))
    }
}

/// The columns of a match as they are written: players, seed, seats, tokens and
/// parameters (JSON; NULL in rows written before games had parameters).
pub type Row = (i64, SeedColumn, String, String, Option<String>);

/// A seed as stored: its 16 bytes (little-endian) in a BLOB, since SQLite's integers
/// hold 64 bits. Rows written when seeds had 64 bits hold an INTEGER (the seed's bits,
/// signed) and are read as well.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeedColumn(pub u128);

impl rusqlite::ToSql for SeedColumn {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        Ok(rusqlite::types::ToSqlOutput::Owned(rusqlite::types::Value::Blob(self.0.to_le_bytes().to_vec())))
    }
}

impl rusqlite::types::FromSql for SeedColumn {
    fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        use rusqlite::types::{FromSqlError, ValueRef};
        match value {
            ValueRef::Integer(bits) => Ok(SeedColumn(u128::from(bits as u64))),
            ValueRef::Blob(bytes) => <[u8; 16]>::try_from(bytes)
                .map(|b| SeedColumn(u128::from_le_bytes(b)))
                .map_err(|_| FromSqlError::InvalidBlobSize { expected_size: 16, blob_size: bytes.len() }),
            _ => Err(FromSqlError::InvalidType),
        }
    }
}

/// A column read as text whatever its type (an id, to name a damaged row by).
fn text_of(value: rusqlite::types::ValueRef<'_>) -> String {
    use rusqlite::types::ValueRef;
    match value {
        ValueRef::Null => "(no id)".to_string(),
        ValueRef::Integer(i) => i.to_string(),
        ValueRef::Real(f) => f.to_string(),
        ValueRef::Text(t) | ValueRef::Blob(t) => String::from_utf8_lossy(t).into_owned(),
    }
}

/// A match's columns, as written.
pub fn encode(m: &StoredMatch) -> Result<Row, StoreError> {
    let seats = serde_json::to_string(&m.seats).map_err(|e| StoreError(e.to_string()))?;
    let tokens = serde_json::to_string(&m.tokens).map_err(|e| StoreError(e.to_string()))?;
    let params = serde_json::to_string(&m.params).map_err(|e| StoreError(e.to_string()))?;
    Ok((i64::from(m.players), SeedColumn(m.seed), seats, tokens, Some(params)))
}

/// A match's columns, read back (without its decisions).
pub fn decode(id: &str, game: &str, row: Row) -> Result<StoredMatch, String> {
    let (players, seed, seats, tokens, params) = row;
    let params: BTreeMap<String, String> = match params {
        Some(text) => serde_json::from_str(&text).map_err(|_| "its parameters cannot be read".to_string())?,
        None => BTreeMap::new(),
    };
    let seats: Vec<String> =
        serde_json::from_str(&seats).map_err(|_| "its seats cannot be read".to_string())?;
    let tokens: Vec<Option<String>> =
        serde_json::from_str(&tokens).map_err(|_| "its tokens cannot be read".to_string())?;
    let players = u32::try_from(players).map_err(|_| format!("its player count {players} cannot be read"))?;
    Ok(StoredMatch {
        id: id.to_string(),
        game: game.to_string(),
        players,
        seed: seed.0,
        seats,
        tokens,
        decisions: Vec::new(),
        deciders: Vec::new(),
        params,
    })
}

impl StoredMatch {
    /// This match as the store would read it back after writing it.
    pub fn round_trip(&self) -> Result<StoredMatch, String> {
        let row = encode(self).map_err(|e| e.to_string())?;
        let back = decode(&self.id, &self.game, row)?;
        Ok(StoredMatch { decisions: self.decisions.clone(), deciders: self.deciders.clone(), ..back })
    }
}

/// The database. Calls block (each write waits for the disk): the server makes them from
/// blocking threads.
pub struct Store {
    /// `None` once [`Store::close`] has closed it.
    conn: Mutex<Option<Connection>>,
    /// Writes that failed, since the store was opened.
    write_failures: AtomicU64,
    /// While set, every write fails with this message, as a full disk makes it fail
    /// ([`Store::fail_writes`]).
    failing: Mutex<Option<String>>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    tokens TEXT NOT NULL,
    created INTEGER NOT NULL,
    params TEXT
);
CREATE TABLE IF NOT EXISTS decisions (
    match_id TEXT NOT NULL REFERENCES matches(id),
    n INTEGER NOT NULL,
    option INTEGER NOT NULL,
    player INTEGER,
    PRIMARY KEY (match_id, n)
);
";

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

impl Store {
    /// Opens (creating if needed) the database at `path`.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let conn = Connection::open(path)
            .map_err(|e| StoreError(format!("cannot open the database `{}`: {e}", path.display())))?;
        Store::init(conn)
    }

    /// A database in memory (for tests: nothing survives the process).
    pub fn in_memory() -> Result<Store, StoreError> {
        Store::init(Connection::open_in_memory()?)
    }

    fn init(conn: Connection) -> Result<Store, StoreError> {
        // `journal_mode` answers with the mode it set.
        let _mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
        conn.execute_batch(
            "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;",
        )?;
        conn.execute_batch(SCHEMA)?;
        // Databases written before matches were cleaned up lack these two columns: a
        // match's last change (creation or decision) and when it finished.
        let columns: Vec<String> = conn
            .prepare("SELECT name FROM pragma_table_info('matches')")?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        if !columns.iter().any(|c| c == "updated") {
            conn.execute_batch(
                "ALTER TABLE matches ADD COLUMN updated INTEGER; UPDATE matches SET updated = created;",
            )?;
        }
        if !columns.iter().any(|c| c == "finished") {
            conn.execute_batch("ALTER TABLE matches ADD COLUMN finished INTEGER")?;
        }
        // Nor do those written before games had parameters: they played the defaults.
        if !columns.iter().any(|c| c == "params") {
            conn.execute_batch("ALTER TABLE matches ADD COLUMN params TEXT")?;
        }
        // Nor those written before simultaneous turns who took each decision.
        let decision_columns: Vec<String> = conn
            .prepare("SELECT name FROM pragma_table_info('decisions')")?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        if !decision_columns.iter().any(|c| c == "player") {
            conn.execute_batch("ALTER TABLE decisions ADD COLUMN player INTEGER")?;
        }
        Ok(Store {
            conn: Mutex::new(Some(conn)),
            write_failures: AtomicU64::new(0),
            failing: Mutex::new(None),
        })
    }

    /// Runs `f` on the connection (an error once the store is closed).
    fn with<T>(&self, f: impl FnOnce(&Connection) -> Result<T, StoreError>) -> Result<T, StoreError> {
        // A panic while holding the lock leaves the connection usable: SQLite rolled back
        // whatever was not committed.
        let guard = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        match guard.as_ref() {
            Some(conn) => f(conn),
            None => Err(StoreError("the database is closed".into())),
        }
    }

    /// Runs a write, counting it if it fails.
    fn write<T>(&self, f: impl FnOnce(&Connection) -> Result<T, StoreError>) -> Result<T, StoreError> {
        let failing = self.failing.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let result = match failing {
            Some(message) => Err(StoreError(message)),
            None => self.with(f),
        };
        if result.is_err() {
            self.write_failures.fetch_add(1, Ordering::Relaxed);
        }
        result
    }

    /// Makes every write fail with `message` (as `database or disk is full` does when the
    /// disk fills), or work again with `None`. For tests of what the server does then: a
    /// full disk cannot be made on demand in a test.
    #[doc(hidden)]
    pub fn fail_writes(&self, message: Option<&str>) {
        *self.failing.lock().unwrap_or_else(|e| e.into_inner()) = message.map(String::from);
    }

    /// How many writes have failed since the store was opened.
    pub fn write_failures(&self) -> u64 {
        self.write_failures.load(Ordering::Relaxed)
    }

    /// Closes the database, after the operation in progress (if any) ends: what was
    /// committed is checkpointed into the file. Later calls fail.
    pub fn close(&self) -> Result<(), StoreError> {
        let conn = self.conn.lock().unwrap_or_else(|e| e.into_inner()).take();
        match conn {
            Some(conn) => conn.close().map_err(|(_, e)| StoreError::from(e)),
            None => Ok(()),
        }
    }

    /// Stores a new match (with its decisions, if any).
    pub fn insert_match(&self, m: &StoredMatch) -> Result<(), StoreError> {
        let (players, seed, seats, tokens, match_params) = encode(m)?;
        let now = now_ms();
        self.write(|conn| {
            let tx = conn.unchecked_transaction()?;
            tx.execute(
                "INSERT INTO matches (id, game, players, seed, seats, tokens, created, updated, params) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7, ?8)",
                params![m.id, m.game, players, seed, seats, tokens, now, match_params],
            )?;
            for (n, option) in m.decisions.iter().enumerate() {
                let player = m.deciders.get(n).copied().flatten().map(i64::from);
                tx.execute(
                    "INSERT INTO decisions (match_id, n, option, player) VALUES (?1, ?2, ?3, ?4)",
                    params![m.id, n as i64, *option as i64, player],
                )?;
            }
            tx.commit()?;
            Ok(())
        })
    }

    /// Stores decision number `n` (0-based) of a match, taken by `player`, and whether the
    /// match finished with it: committed when this returns.
    pub fn insert_decision(
        &self,
        id: &str,
        n: usize,
        player: u32,
        option: usize,
        finished: bool,
    ) -> Result<(), StoreError> {
        let now = now_ms();
        self.write(|conn| {
            let tx = conn.unchecked_transaction()?;
            tx.execute(
                "INSERT INTO decisions (match_id, n, option, player) VALUES (?1, ?2, ?3, ?4)",
                params![id, n as i64, option as i64, i64::from(player)],
            )?;
            tx.execute(
                "UPDATE matches SET updated = ?2, finished = CASE WHEN ?3 THEN ?2 ELSE finished END WHERE id = ?1",
                params![id, now, finished],
            )?;
            tx.commit()?;
            Ok(())
        })
    }

    /// Records that a match finished (its last decision's time when it has one), if the
    /// store does not know it yet: a match stopped without a decision, or one finished
    /// before the store recorded it.
    pub fn mark_finished(&self, id: &str) -> Result<(), StoreError> {
        self.write(|conn| {
            conn.execute(
                "UPDATE matches SET finished = COALESCE(updated, created) WHERE id = ?1 AND finished IS NULL",
                [id],
            )?;
            Ok(())
        })
    }

    /// How many matches are stored.
    pub fn count(&self) -> Result<usize, StoreError> {
        self.with(|conn| {
            let n: i64 = conn.query_row("SELECT COUNT(*) FROM matches", [], |r| r.get(0))?;
            Ok(n as usize)
        })
    }

    /// Whether a match with this id exists.
    pub fn exists(&self, id: &str) -> Result<bool, StoreError> {
        self.with(|conn| {
            let found: Option<i64> =
                conn.query_row("SELECT 1 FROM matches WHERE id = ?1", [id], |r| r.get(0)).optional()?;
            Ok(found.is_some())
        })
    }

    /// Deletes the matches that the cleanup policy lets go, at time `now` (ms): finished
    /// ones that finished before `finished_before`, and any without a change (creation or
    /// decision) since `idle_before`. Their ids.
    pub fn sweep(&self, finished_before: i64, idle_before: i64) -> Result<Vec<String>, StoreError> {
        self.write(|conn| {
            let tx = conn.unchecked_transaction()?;
            let ids: Vec<String> = tx
                .prepare(
                    "SELECT id FROM matches WHERE (finished IS NOT NULL AND finished < ?1) \
                     OR COALESCE(updated, created) < ?2 ORDER BY created",
                )?
                .query_map(params![finished_before, idle_before], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            for id in &ids {
                tx.execute("DELETE FROM decisions WHERE match_id = ?1", [id])?;
                tx.execute("DELETE FROM matches WHERE id = ?1", [id])?;
            }
            tx.commit()?;
            Ok(ids)
        })
    }

    /// Deletes the match that finished first, to make room for a new one; its id, or
    /// `None` when no stored match is finished.
    pub fn evict_oldest_finished(&self) -> Result<Option<String>, StoreError> {
        self.write(|conn| {
            let tx = conn.unchecked_transaction()?;
            let id: Option<String> = tx
                .query_row(
                    "SELECT id FROM matches WHERE finished IS NOT NULL ORDER BY finished, created, rowid LIMIT 1",
                    [],
                    |r| r.get(0),
                )
                .optional()?;
            if let Some(id) = &id {
                tx.execute("DELETE FROM decisions WHERE match_id = ?1", [id])?;
                tx.execute("DELETE FROM matches WHERE id = ?1", [id])?;
            }
            tx.commit()?;
            Ok(id)
        })
    }

    /// Every match with its decisions, oldest first. A match whose row cannot be read is
    /// returned with the reason, and the others are read all the same.
    pub fn load_all(&self) -> Result<Vec<Loaded>, StoreError> {
        self.with(|conn| {
            let mut stmt = conn.prepare(
                "SELECT id, game, players, seed, seats, tokens, finished IS NOT NULL, params FROM matches \
                 ORDER BY created, rowid",
            )?;
            // A column of the wrong type (a damaged row) spoils its match only: each row's
            // columns are read apart from its id.
            let rows = stmt.query_map([], |r| {
                let id = text_of(r.get_ref(0)?);
                let columns = (|| {
                    Ok::<_, rusqlite::Error>((
                        r.get::<_, String>(1)?,
                        (
                            r.get::<_, i64>(2)?,
                            r.get::<_, SeedColumn>(3)?,
                            r.get::<_, String>(4)?,
                            r.get::<_, String>(5)?,
                            r.get::<_, Option<String>>(7)?,
                        ),
                        r.get::<_, bool>(6)?,
                    ))
                })();
                Ok((id, columns))
            })?;
            let mut matches = Vec::new();
            for row in rows {
                let (id, columns) = row?;
                matches.push(match columns {
                    Ok((game, row, finished)) => Loaded { stored: decode(&id, &game, row), id, finished },
                    Err(e) => {
                        Loaded { id, stored: Err(format!("its row cannot be read: {e}")), finished: false }
                    }
                });
            }
            drop(stmt);
            let mut stmt =
                conn.prepare("SELECT n, option, player FROM decisions WHERE match_id = ?1 ORDER BY n")?;
            for m in &mut matches {
                let Ok(stored) = &mut m.stored else { continue };
                let rows = stmt.query_map([&m.id], |r| {
                    Ok((|| {
                        Ok::<_, rusqlite::Error>((
                            r.get::<_, i64>(0)?,
                            r.get::<_, i64>(1)?,
                            r.get::<_, Option<i64>>(2)?,
                        ))
                    })())
                })?;
                for row in rows {
                    let Ok((n, option, player)) = row? else {
                        m.stored = Err(format!("decision {} cannot be read", stored.decisions.len()));
                        break;
                    };
                    let player = player.map(u32::try_from).transpose();
                    let Some(player) =
                        player.ok().filter(|_| n == stored.decisions.len() as i64 && option >= 0)
                    else {
                        m.stored = Err(format!("decision {n} is stored out of order or damaged"));
                        break;
                    };
                    stored.decisions.push(option as usize);
                    stored.deciders.push(player);
                }
            }
            Ok(matches)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(id: &str) -> StoredMatch {
        StoredMatch {
            id: id.into(),
            game: "G".into(),
            players: 2,
            seed: u128::MAX - 3,
            seats: vec!["human".into(), "mcts:50".into()],
            tokens: vec![Some("t0".into()), None],
            decisions: vec![],
            deciders: vec![],
            params: BTreeMap::from([("cards".to_string(), "5".to_string())]),
        }
    }

    #[test]
    fn matches_and_decisions_round_trip() {
        let store = Store::in_memory().unwrap();
        let m = sample("abc");
        assert_eq!(m.round_trip().unwrap(), m);
        store.insert_match(&m).unwrap();
        store.insert_decision("abc", 0, 0, 4, false).unwrap();
        store.insert_decision("abc", 1, 1, 0, false).unwrap();
        assert!(store.insert_decision("abc", 1, 0, 2, false).is_err(), "a decision is stored once");
        assert!(store.insert_decision("nope", 0, 0, 2, false).is_err(), "decisions belong to a match");
        let loaded = store.load_all().unwrap();
        let want = StoredMatch { decisions: vec![4, 0], deciders: vec![Some(0), Some(1)], ..m };
        assert_eq!(loaded, vec![Loaded { id: "abc".into(), stored: Ok(want), finished: false }]);
        assert_eq!(store.count().unwrap(), 1);
        assert!(store.exists("abc").unwrap());
        assert!(!store.exists("abd").unwrap());
        store.close().unwrap();
        assert!(store.count().is_err(), "a closed store answers nothing");
    }

    /// The cleanup policy: finished matches go after their delay, oldest first when room
    /// is needed; matches without a change go after theirs; the rest stay.
    #[test]
    fn sweeping_and_eviction_follow_the_policy() {
        let store = Store::in_memory().unwrap();
        // "b" is created first and finishes when it was last changed (its creation), "a"
        // with its decision: "b" finished first, whether or not the clock ticked between.
        for id in ["b", "a", "c", "d"] {
            store.insert_match(&sample(id)).unwrap();
        }
        store.insert_decision("a", 0, 0, 1, true).unwrap();
        store.mark_finished("b").unwrap();
        let now = now_ms();
        // Nothing is old enough yet.
        assert_eq!(store.sweep(now - 60_000, now - 60_000).unwrap(), Vec::<String>::new());
        // The oldest finished match makes room first.
        assert_eq!(store.evict_oldest_finished().unwrap().as_deref(), Some("b"));
        // Finished matches past their delay go; unfinished ones stay.
        assert_eq!(store.sweep(now + 1, now - 60_000).unwrap(), vec!["a".to_string()]);
        assert_eq!(store.evict_oldest_finished().unwrap(), None);
        // Then matches without a change.
        assert_eq!(store.sweep(now + 1, now + 1).unwrap(), vec!["c".to_string(), "d".to_string()]);
        assert_eq!(store.count().unwrap(), 0);
    }

    #[test]
    fn a_damaged_row_spoils_only_its_match() {
        let store = Store::in_memory().unwrap();
        store.insert_match(&sample("good")).unwrap();
        store.insert_match(&sample("bad")).unwrap();
        store.with(|c| Ok(c.execute("UPDATE matches SET seats = 'x' WHERE id = 'bad'", [])?)).unwrap();
        let loaded = store.load_all().unwrap();
        assert!(loaded[0].stored.is_ok());
        assert_eq!(loaded[1].stored, Err("its seats cannot be read".to_string()));
    }

    /// Columns of the wrong type (a seed of 5 bytes, an option that is text) make their
    /// match unreadable, not the whole database.
    #[test]
    fn a_column_of_the_wrong_type_spoils_only_its_match() {
        let store = Store::in_memory().unwrap();
        for id in ["seed", "good", "option"] {
            store.insert_match(&sample(id)).unwrap();
        }
        store.insert_decision("option", 0, 0, 1, false).unwrap();
        store.insert_decision("good", 0, 0, 1, false).unwrap();
        store
            .with(|c| {
                c.execute("UPDATE matches SET seed = x'0102030405' WHERE id = 'seed'", [])?;
                Ok(c.execute("UPDATE decisions SET option = 'x' WHERE match_id = 'option'", [])?)
            })
            .unwrap();
        let loaded = store.load_all().unwrap();
        let ids: Vec<&str> = loaded.iter().map(|m| m.id.as_str()).collect();
        assert_eq!(ids, ["seed", "good", "option"]);
        assert!(loaded[0].stored.as_ref().unwrap_err().contains("its row cannot be read"), "{loaded:?}");
        assert_eq!(loaded[1].stored.as_ref().unwrap().decisions, vec![1]);
        assert_eq!(loaded[2].stored, Err("decision 0 cannot be read".to_string()));
    }

    #[test]
    fn failing_writes_are_counted_and_change_nothing() {
        let store = Store::in_memory().unwrap();
        store.insert_match(&sample("m")).unwrap();
        store.fail_writes(Some("database or disk is full"));
        let e = store.insert_decision("m", 0, 0, 1, false).unwrap_err();
        assert_eq!(e.to_string(), "database or disk is full");
        assert_eq!(store.write_failures(), 1);
        store.fail_writes(None);
        store.insert_decision("m", 0, 0, 1, false).unwrap();
        assert_eq!(store.load_all().unwrap()[0].stored.as_ref().unwrap().decisions, vec![1]);
    }
}
