//! A vector of seeded games stepped together (`module.VectorEnv`, docs/python.md): one call
//! applies an action to each game on rayon's threads, without the GIL, and returns NumPy
//! arrays — the current player's observation (the [`Encoder`]'s layout, the Python
//! encoder's), the legal-action mask, the current player, the returns of the games that
//! ended, and which ended. A game that ends is replaced by the next at once.
//!
//! Slot `i` of a vector of `n` plays games `i`, `n + i`, `2n + i`, ... and game `k` has
//! seed `derive_seed(seed, k)`, as game `k` of a simulation: each game is
//! `Game(players).new_state(derive_seed(seed, k))` played with the actions given to its slot.

use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};
use std::sync::Mutex;

use tgdl_runtime::hidden::Viewer;
use tgdl_runtime::{Game, Params, Rng, Start, Status};

use crate::encoding::Encoder;
use crate::explore::returns_of;

/// One slot of the vector: the game it plays now.
#[derive(Clone)]
struct Slot<G: Game> {
    game: G,
    /// The game's index (its seed is `derive_seed(seed, index)`).
    index: u64,
    actions: Vec<usize>,
}

/// What a step (or a reset) gives back, a row per slot.
pub struct Batch {
    pub observations: Vec<f32>,
    pub masks: Vec<u8>,
    pub players: Vec<i32>,
    pub rewards: Vec<f64>,
    pub done: Vec<u8>,
    pub truncated: Vec<u8>,
    pub failed: Vec<u8>,
}

/// One slot's rows of a [`Batch`].
struct Row<'a> {
    observation: &'a mut [f32],
    mask: &'a mut [u8],
    player: &'a mut i32,
    rewards: &'a mut [f64],
    done: &'a mut u8,
    truncated: &'a mut u8,
    failed: &'a mut u8,
}

impl Batch {
    fn new(slots: usize, observation: usize, actions: usize, players: usize) -> Batch {
        Batch {
            observations: vec![0.0; slots * observation],
            masks: vec![0; slots * actions],
            players: vec![0; slots],
            rewards: vec![0.0; slots * players],
            done: vec![0; slots],
            truncated: vec![0; slots],
            failed: vec![0; slots],
        }
    }

    fn rows(&mut self, observation: usize, actions: usize, players: usize) -> Vec<Row<'_>> {
        let n = self.players.len();
        chunks(&mut self.observations, observation, n)
            .into_iter()
            .zip(chunks(&mut self.masks, actions, n))
            .zip(self.players.iter_mut())
            .zip(chunks(&mut self.rewards, players, n))
            .zip(self.done.iter_mut().zip(self.truncated.iter_mut()).zip(self.failed.iter_mut()))
            .map(|((((observation, mask), player), rewards), ((done, truncated), failed))| Row {
                observation,
                mask,
                player,
                rewards,
                done,
                truncated,
                failed,
            })
            .collect()
    }
}

/// `n` consecutive pieces of `size` items of `items` (`size` may be 0).
fn chunks<T>(items: &mut [T], size: usize, n: usize) -> Vec<&mut [T]> {
    let mut out = Vec::with_capacity(n);
    let mut rest = items;
    for _ in 0..n {
        let (piece, after) = std::mem::take(&mut rest).split_at_mut(size);
        out.push(piece);
        rest = after;
    }
    out
}

/// Why a step failed.
pub enum VectorError {
    /// An action is not one of its game's options (nothing was stepped).
    Action(String),
    /// A game could not go on: its menu is wider than the mask, it ended or failed during
    /// setup, or its observation does not fit the encoder's layout. The vector must be
    /// reset.
    Game(String),
}

impl From<VectorError> for PyErr {
    fn from(e: VectorError) -> PyErr {
        match e {
            VectorError::Action(m) => PyIndexError::new_err(m),
            VectorError::Game(m) => PyValueError::new_err(m),
        }
    }
}

/// The games of a vector environment and how they are stepped.
pub struct VectorCore<G: Game> {
    slots: Vec<Slot<G>>,
    num_envs: usize,
    players: u32,
    /// The values of the game's parameters every game starts with.
    params: Params,
    seed: u64,
    max_actions: usize,
    max_decisions: u64,
    /// `None`: no observations (an empty row per game).
    encoder: Option<Encoder>,
    /// `None`: one thread, the caller's.
    pool: Option<rayon::ThreadPool>,
    threads: usize,
}

impl<G: Game> VectorCore<G> {
    /// A vector of `slots` games of `players` players on `threads` threads (0: one per
    /// core); `reset` starts the games.
    pub fn new(
        slots: usize,
        players: u32,
        params: Params,
        threads: usize,
        max_actions: usize,
        max_decisions: u64,
        encoder: Option<Encoder>,
    ) -> Result<VectorCore<G>, String> {
        if slots == 0 {
            return Err("a vector environment needs at least one game".into());
        }
        if max_actions == 0 {
            return Err("max_actions must be at least 1".into());
        }
        let threads =
            if threads == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { threads };
        let pool = if threads > 1 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|i| format!("tgdl-vector-{i}"))
                .build()
                .map_err(|e| e.to_string())?;
            Some(pool)
        } else {
            None
        };
        Ok(VectorCore {
            slots: Vec::new(),
            num_envs: slots,
            players,
            params,
            seed: 0,
            max_actions,
            max_decisions,
            encoder,
            pool,
            threads,
        })
    }

    pub fn num_envs(&self) -> usize {
        self.num_envs
    }

    pub fn players(&self) -> u32 {
        self.players
    }

    pub fn params(&self) -> &Params {
        &self.params
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    pub fn max_actions(&self) -> usize {
        self.max_actions
    }

    pub fn max_decisions(&self) -> u64 {
        self.max_decisions
    }

    pub fn observation_size(&self) -> usize {
        self.encoder.as_ref().map_or(0, Encoder::size)
    }

    /// Each slot's game index (its seed: `derive_seed(seed, index)`).
    pub fn indices(&self) -> Vec<u64> {
        self.slots.iter().map(|s| s.index).collect()
    }

    /// Slot `i`'s game: its seed and the actions applied to it.
    pub fn game(&self, i: usize) -> Option<(u64, Vec<usize>)> {
        self.slots.get(i).map(|s| (Rng::derive_seed(self.seed, s.index), s.actions.clone()))
    }

    fn batch(&self) -> Batch {
        Batch::new(self.num_envs(), self.observation_size(), self.max_actions, self.players as usize)
    }

    /// Starts games `0..n` of `seed`.
    pub fn reset(&mut self, seed: u64) -> Result<Batch, VectorError> {
        self.seed = seed;
        let mut batch = self.batch();
        let mut rows = batch.rows(self.observation_size(), self.max_actions, self.players as usize);
        let mut slots: Vec<Option<Slot<G>>> = (0..self.num_envs).map(|_| None).collect();
        let ctx = Context { core: self };
        ctx.each(&mut slots, &mut rows, |index, slot, row| {
            let started = ctx.start(index as u64)?;
            ctx.observe(&started, row)?;
            *slot = Some(started);
            Ok(())
        })
        .map_err(VectorError::Game)?;
        self.slots = slots.into_iter().flatten().collect();
        Ok(batch)
    }

    /// Applies `actions[i]` to slot `i`'s game; a game that ends is replaced by the slot's
    /// next game.
    pub fn step(&mut self, actions: &[i64]) -> Result<Batch, VectorError> {
        let n = self.num_envs;
        if self.slots.is_empty() {
            return Err(VectorError::Game("reset the vector environment before stepping it".into()));
        }
        if actions.len() != n {
            return Err(VectorError::Action(format!("{} actions for {n} games", actions.len())));
        }
        for (i, (&a, slot)) in actions.iter().zip(&self.slots).enumerate() {
            let options = slot.game.options().len();
            if a < 0 || a as usize >= options {
                return Err(VectorError::Action(format!(
                    "action {a} of game {i} does not exist (there are {options})"
                )));
            }
        }
        let mut batch = self.batch();
        let mut rows = batch.rows(self.observation_size(), self.max_actions, self.players as usize);
        let mut slots = std::mem::take(&mut self.slots);
        let ctx = Context { core: self };
        let stepped =
            ctx.each(&mut slots, &mut rows, |i, slot, row| ctx.step(slot, actions[i] as usize, row));
        self.slots = slots;
        stepped.map_err(VectorError::Game)?;
        Ok(batch)
    }
}

/// A run of slots and their rows, for the thread that takes it.
type Part<'a, A, B> = Mutex<Option<(&'a mut [A], &'a mut [B])>>;

/// What the slots' work reads of the vector, shared between the threads.
struct Context<'a, G: Game> {
    core: &'a VectorCore<G>,
}

impl<G: Game> Context<'_, G> {
    /// `work(i, a[i], b[i])` for every `i`, on the vector's threads; with one thread, on
    /// this one. Thread `k` always takes the `k`-th run of slots: a game's memory is then
    /// allocated, grown and freed by one thread (shared between threads, the allocator's
    /// locks were contended so much that two threads stepped fewer games than one).
    fn each<A: Send, B: Send>(
        &self,
        a: &mut [A],
        b: &mut [B],
        work: impl Fn(usize, &mut A, &mut B) -> Result<(), String> + Sync,
    ) -> Result<(), String> {
        let run = |start: usize, a: &mut [A], b: &mut [B]| {
            a.iter_mut().zip(b.iter_mut()).enumerate().try_for_each(|(i, (x, y))| work(start + i, x, y))
        };
        let Some(pool) = &self.core.pool else { return run(0, a, b) };
        let per = a.len().div_ceil(pool.current_num_threads()).max(1);
        let parts: Vec<Part<'_, A, B>> =
            a.chunks_mut(per).zip(b.chunks_mut(per)).map(|part| Mutex::new(Some(part))).collect();
        let done: Result<(), String> = pool
            .broadcast(|ctx| {
                let part = parts.get(ctx.index()).and_then(|p| p.lock().ok()?.take());
                match part {
                    Some((a, b)) => run(ctx.index() * per, a, b),
                    None => Ok(()),
                }
            })
            .into_iter()
            .collect();
        done?;
        // Every run was taken by its thread.
        if parts.iter().any(|p| p.lock().map_or(true, |p| p.is_some())) {
            return Err("a thread of the vector environment did not step its games".into());
        }
        Ok(())
    }

    fn start(&self, index: u64) -> Result<Slot<G>, String> {
        let seed = Rng::derive_seed(self.core.seed, index);
        let game = G::start_with(
            &Start::seeded(self.core.players, u128::from(seed)).with_params(self.core.params.clone()),
        )
        .map_err(|e| e.to_string())?;
        Ok(Slot { game, index, actions: Vec::new() })
    }

    fn step(&self, slot: &mut Slot<G>, action: usize, row: &mut Row<'_>) -> Result<(), String> {
        slot.game.apply(action).map_err(|e| e.to_string())?;
        slot.actions.push(action);
        let status = slot.game.status();
        let over = matches!(status, Status::Over | Status::Failed);
        let truncated = !over && slot.actions.len() as u64 >= self.core.max_decisions;
        if over || truncated {
            *row.done = 1;
            *row.truncated = u8::from(truncated);
            *row.failed = u8::from(status == Status::Failed);
            if over {
                row.rewards.copy_from_slice(&returns_of(&slot.game));
            }
            *slot = self.start(slot.index + self.core.num_envs() as u64)?;
        }
        self.observe(slot, row)
    }

    /// Writes what the player deciding in `slot` sees and may choose.
    fn observe(&self, slot: &Slot<G>, row: &mut Row<'_>) -> Result<(), String> {
        let game = &slot.game;
        let Status::Decide(p) = game.status() else {
            let seed = Rng::derive_seed(self.core.seed, slot.index);
            let why = match game.error() {
                Some(e) => format!("failed during setup: {e}"),
                None => "ended during setup: nobody decides".to_string(),
            };
            return Err(format!("game {} (seed {seed}) {why}", slot.index));
        };
        let options = game.options().len();
        if options > self.core.max_actions {
            return Err(format!(
                "game {} has {options} options, more than the mask's {} (max_actions): make the vector with a larger max_actions",
                slot.index, self.core.max_actions
            ));
        }
        row.mask[..options].fill(1);
        *row.player = p.0 as i32;
        match &self.core.encoder {
            Some(encoder) => encoder.encode(&game.observation(Viewer::Seat(p.0)), row.observation),
            None => Ok(()),
        }
    }
}

/// A NumPy array of `values` (written as native-endian bytes) with `dtype` and `shape`.
pub fn array<'py, T: Copy, const N: usize>(
    py: Python<'py>,
    values: &[T],
    bytes: fn(T) -> [u8; N],
    dtype: &str,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let buffer = PyByteArray::new_with(py, values.len() * N, |buf| {
        for (dst, &x) in buf.chunks_exact_mut(N).zip(values) {
            dst.copy_from_slice(&bytes(x));
        }
        Ok(())
    })?;
    let numpy = py.import("numpy")?;
    numpy
        .getattr("frombuffer")?
        .call1((buffer, numpy.getattr(dtype)?))?
        .call_method1("reshape", (shape.to_vec(),))
}

/// `actions` (any sequence of integers, a NumPy array) as `i64`s, read through NumPy.
pub fn actions_of(actions: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    let py = actions.py();
    let numpy = py.import("numpy")?;
    let array = numpy.getattr("ascontiguousarray")?.call1((actions, numpy.getattr("int64")?))?;
    if array.getattr("ndim")?.extract::<usize>()? != 1 {
        return Err(PyValueError::new_err("actions must be one integer per game"));
    }
    let bytes = array.call_method0("tobytes")?;
    let bytes = bytes.cast::<PyBytes>()?.as_bytes();
    Ok(bytes.chunks_exact(8).map(|b| i64::from_ne_bytes(b.try_into().unwrap_or_default())).collect())
}

/// The arrays of a batch of `core`: `(observations, masks, players)` after a reset,
/// with `(rewards, done)` after a step.
pub fn arrays<'py, G: Game>(
    py: Python<'py>,
    core: &VectorCore<G>,
    batch: &Batch,
) -> PyResult<[Bound<'py, PyAny>; 5]> {
    let n = core.num_envs();
    Ok([
        array(py, &batch.observations, f32::to_ne_bytes, "float32", &[n, core.observation_size()])?,
        array(py, &batch.masks, |x: u8| [x], "bool_", &[n, core.max_actions()])?,
        array(py, &batch.players, i32::to_ne_bytes, "int32", &[n])?,
        array(py, &batch.rewards, f64::to_ne_bytes, "float64", &[n, core.players() as usize])?,
        array(py, &batch.done, |x: u8| [x], "bool_", &[n])?,
    ])
}

/// What `VectorEnv(...)` is made of: the games' core, started with `seed`, and the Python
/// encoder whose layout it writes (`module.observation_encoder(players)` unless given;
/// none without `observations`).
#[allow(clippy::too_many_arguments)]
pub fn make<G: Game>(
    py: Python<'_>,
    module: &str,
    num_envs: usize,
    seed: u64,
    players: u32,
    params: Params,
    threads: usize,
    max_actions: Option<usize>,
    max_decisions: Option<u64>,
    observations: bool,
    encoder: Option<Bound<'_, PyAny>>,
) -> PyResult<(VectorCore<G>, Batch, Option<Py<PyAny>>)> {
    let encoder = match (observations, encoder) {
        (false, Some(_)) => {
            return Err(PyValueError::new_err("an encoder is for observations: observations=False has none"));
        }
        (false, None) => None,
        (true, Some(e)) => Some(e),
        (true, None) => Some(py.import(module)?.getattr("observation_encoder")?.call1((players,))?),
    };
    let rust = match &encoder {
        Some(encoder) => Some(rust_encoder(py, encoder, players)?),
        None => None,
    };
    let max_actions = match max_actions {
        Some(m) => m,
        None => {
            let found = py
                .detach(|| crate::explore::explore::<G>(players, &params, EXPLORE_NODES, EXPLORE_PLAYOUTS, 0))
                .map_err(PyValueError::new_err)?;
            found.max_actions.max(1) as usize
        }
    };
    let max_decisions = max_decisions.unwrap_or(tgdl_play::driver::DEFAULT_MAX_DECISIONS);
    let mut core = VectorCore::new(num_envs, players, params, threads, max_actions, max_decisions, rust)
        .map_err(PyValueError::new_err)?;
    let batch = py.detach(|| core.reset(seed))?;
    Ok((core, batch, encoder.map(Bound::unbind)))
}

/// The Rust encoder of a Python `ObservationEncoder` of `players` players: its vocabulary,
/// checked to give the same size.
fn rust_encoder(py: Python<'_>, encoder: &Bound<'_, PyAny>, players: u32) -> PyResult<Encoder> {
    let encoder_players: u32 = encoder.getattr("players")?.extract()?;
    if encoder_players != players {
        return Err(PyValueError::new_err(format!(
            "the encoder is for {encoder_players} players, the vector for {players}"
        )));
    }
    let vocabulary: String =
        py.import("json")?.getattr("dumps")?.call1((encoder.getattr("vocabulary")?,))?.extract()?;
    let rust = Encoder::from_json(&vocabulary).map_err(PyValueError::new_err)?;
    let size: usize = encoder.getattr("size")?.extract()?;
    if size != rust.size() {
        return Err(PyValueError::new_err(format!(
            "the encoder's layout has {size} numbers, its vocabulary {}",
            rust.size()
        )));
    }
    Ok(rust)
}

/// The walk that finds the mask's width when `max_actions` is not given: smaller than
/// `explore`'s default, as random playouts find the menus a long game shows.
pub const EXPLORE_NODES: u64 = 10_000;
pub const EXPLORE_PLAYOUTS: u64 = 200;
