//! The durable store: one SQLite file holding every match (game, player count, seed,
//! seats, tokens) and every decision taken in it, in order.
//!
//! The database runs in WAL mode with `synchronous = FULL`: a decision's `INSERT` is its
//! own transaction, and once it returns the decision survives a killed process (and a
//! power cut). The server answers a request only after that.

use rusqlite::{Connection, OptionalExtension, params};
use std::path::Path;
use std::sync::Mutex;

/// A match as stored: everything needed to rebuild it by replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredMatch {
    pub id: String,
    /// The game's name (`GameInfo::name`): a database serves one game.
    pub game: String,
    pub players: u32,
    pub seed: u64,
    /// One seat name per player (`human`, `random`, `mcts:500`, ...).
    pub seats: Vec<String>,
    /// The join token of each human seat.
    pub tokens: Vec<Option<String>>,
    /// The option chosen at each decision, in order.
    pub decisions: Vec<usize>,
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

/// The database. Calls block (each write waits for the disk): the server makes them from
/// blocking threads.
pub struct Store {
    conn: Mutex<Connection>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    tokens TEXT NOT NULL,
    created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS decisions (
    match_id TEXT NOT NULL REFERENCES matches(id),
    n INTEGER NOT NULL,
    option INTEGER NOT NULL,
    PRIMARY KEY (match_id, n)
);
";

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
        Ok(Store { conn: Mutex::new(conn) })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves the connection usable: SQLite rolled back
        // whatever was not committed.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stores a new match (with no decisions).
    pub fn insert_match(&self, m: &StoredMatch) -> Result<(), StoreError> {
        let seats = serde_json::to_string(&m.seats).map_err(|e| StoreError(e.to_string()))?;
        let tokens = serde_json::to_string(&m.tokens).map_err(|e| StoreError(e.to_string()))?;
        let created = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        let conn = self.conn();
        let tx = conn.unchecked_transaction()?;
        tx.execute(
            "INSERT INTO matches (id, game, players, seed, seats, tokens, created) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![m.id, m.game, m.players, m.seed as i64, seats, tokens, created],
        )?;
        for (n, option) in m.decisions.iter().enumerate() {
            tx.execute(
                "INSERT INTO decisions (match_id, n, option) VALUES (?1, ?2, ?3)",
                params![m.id, n as i64, *option as i64],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Stores decision number `n` (0-based) of a match: committed when this returns.
    pub fn insert_decision(&self, id: &str, n: usize, option: usize) -> Result<(), StoreError> {
        self.conn().execute(
            "INSERT INTO decisions (match_id, n, option) VALUES (?1, ?2, ?3)",
            params![id, n as i64, option as i64],
        )?;
        Ok(())
    }

    /// How many matches are stored.
    pub fn count(&self) -> Result<usize, StoreError> {
        let n: i64 = self.conn().query_row("SELECT COUNT(*) FROM matches", [], |r| r.get(0))?;
        Ok(n as usize)
    }

    /// Whether a match with this id exists.
    pub fn exists(&self, id: &str) -> Result<bool, StoreError> {
        let found: Option<i64> =
            self.conn().query_row("SELECT 1 FROM matches WHERE id = ?1", [id], |r| r.get(0)).optional()?;
        Ok(found.is_some())
    }

    /// Every match with its decisions, oldest first.
    pub fn load_all(&self) -> Result<Vec<StoredMatch>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare("SELECT id, game, players, seed, seats, tokens FROM matches ORDER BY created, rowid")?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, String>(5)?,
            ))
        })?;
        let mut matches = Vec::new();
        for row in rows {
            let (id, game, players, seed, seats, tokens) = row?;
            let bad = |what: &str| StoreError(format!("match {id}: the stored {what} cannot be read"));
            let seats: Vec<String> = serde_json::from_str(&seats).map_err(|_| bad("seats"))?;
            let tokens: Vec<Option<String>> = serde_json::from_str(&tokens).map_err(|_| bad("tokens"))?;
            let players = u32::try_from(players).map_err(|_| bad("player count"))?;
            matches.push(StoredMatch {
                id: id.clone(),
                game,
                players,
                seed: seed as u64,
                seats,
                tokens,
                decisions: Vec::new(),
            });
        }
        drop(stmt);
        let mut stmt = conn.prepare("SELECT n, option FROM decisions WHERE match_id = ?1 ORDER BY n")?;
        for m in &mut matches {
            let rows = stmt.query_map([&m.id], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)))?;
            for row in rows {
                let (n, option) = row?;
                if n != m.decisions.len() as i64 || option < 0 {
                    return Err(StoreError(format!(
                        "match {}: decision {n} is stored out of order or damaged",
                        m.id
                    )));
                }
                m.decisions.push(option as usize);
            }
        }
        Ok(matches)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_and_decisions_round_trip() {
        let store = Store::in_memory().unwrap();
        let m = StoredMatch {
            id: "abc".into(),
            game: "G".into(),
            players: 2,
            seed: u64::MAX - 3,
            seats: vec!["human".into(), "mcts:50".into()],
            tokens: vec![Some("t0".into()), None],
            decisions: vec![],
        };
        store.insert_match(&m).unwrap();
        store.insert_decision("abc", 0, 4).unwrap();
        store.insert_decision("abc", 1, 0).unwrap();
        assert!(store.insert_decision("abc", 1, 2).is_err(), "a decision is stored once");
        assert!(store.insert_decision("nope", 0, 2).is_err(), "decisions belong to a match");
        let loaded = store.load_all().unwrap();
        assert_eq!(loaded, vec![StoredMatch { decisions: vec![4, 0], ..m }]);
        assert_eq!(store.count().unwrap(), 1);
        assert!(store.exists("abc").unwrap());
        assert!(!store.exists("abd").unwrap());
    }
}
