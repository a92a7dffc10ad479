//! A Python wheel for one game, for `tgdlc build FILE --python` (docs/python.md).
//!
//! Beside the binaries, the cache holds one maturin project per game, in maturin's mixed
//! Rust/Python layout: the game is a package whose native part is `<module>._engine`.
//!
//! ```text
//! <cache>/python/<module>-<hash>/
//!   Cargo.toml        cdylib `<module>`; depends on tgdl-runtime and tgdl-python (the
//!                     runtime's sibling directory) by path; empty [workspace]
//!   Cargo.lock        copied from the TGDL workspace when there is one
//!   pyproject.toml    maturin, stable ABI (abi3, Python ≥ 3.9); depends on `tgdl`
//!   python/<module>/  __init__.py (re-exports `_engine`, adds `env()` and
//!                     `observation_encoder()`), __init__.pyi (type stubs), py.typed
//!   src/lib.rs        `mod game;` + `tgdl_python::python_game!(<module>, game::Game)`
//!   src/game.rs       the generated engine
//! ```
//!
//! `maturin build --release` compiles it in the shared target directory and writes the
//! wheel. maturin is `$TGDL_MATURIN`, else `maturin` on the `PATH`.
//!
//! What every game shares — the PettingZoo environment, the observation encoder, the Ray
//! entry point and the OpenSpiel game (`tgdl_pettingzoo`, `tgdl_observation`, `tgdl_ray`,
//! `tgdl_openspiel`: the `.py` files of `tgdl-python/python/`) — is the pure-Python
//! distribution `tgdl`, written beside the game's wheel ([`wheel`]). Game wheels require it at the same version, so two game
//! wheels never install the same file.

use super::{
    BuildError, BuildOptions, Fnv64, VERSION, cache_dir, io, runtime_path, toml_string, write_if_changed,
};
use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod wheel;

/// Why a wheel could not be built.
#[derive(Debug)]
pub enum PythonBuildError {
    /// The cache, the runtime or a file could not be used.
    Build(BuildError),
    /// The `tgdl-python` crate is not beside the runtime.
    NoBindings { path: PathBuf },
    /// maturin could not be started.
    NoMaturin { maturin: OsString, error: std::io::Error },
    /// maturin failed; `output` is its output (empty when it went to the terminal).
    MaturinFailed { project: PathBuf, output: String },
    /// maturin reported success but no wheel is in the output directory.
    NoWheel { dir: PathBuf },
    /// The Python sources of the `tgdl` support package could not be read.
    NoSupport { dir: PathBuf, error: std::io::Error },
}

impl fmt::Display for PythonBuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PythonBuildError::Build(e) => write!(f, "{e}"),
            PythonBuildError::NoBindings { path } => write!(
                f,
                "cannot find the tgdl-python crate at `{}` (beside tgdl-runtime); \
                 set TGDL_RUNTIME_PATH to the tgdl-runtime directory of a TGDL checkout",
                path.display()
            ),
            PythonBuildError::NoMaturin { maturin, error } => write!(
                f,
                "cannot run `{}` to build the wheel: {error}; install maturin (`pip install maturin`, \
                 in the virtual environment you build from) or set TGDL_MATURIN",
                maturin.to_string_lossy()
            ),
            PythonBuildError::MaturinFailed { project, output } => {
                write!(
                    f,
                    "maturin failed to build the wheel\nnote: the generated project is `{}`",
                    project.display()
                )?;
                if output.trim().is_empty() {
                    write!(f, "\nnote: maturin's output is above")
                } else {
                    write!(f, "\nnote: maturin's output:\n{}", output.trim_end())
                }
            }
            PythonBuildError::NoWheel { dir } => {
                write!(f, "maturin reported success but wrote no wheel to `{}`", dir.display())
            }
            PythonBuildError::NoSupport { dir, error } => write!(
                f,
                "cannot read the Python sources of the tgdl support package in `{}`: {error}",
                dir.display()
            ),
        }
    }
}

impl std::error::Error for PythonBuildError {}

impl From<BuildError> for PythonBuildError {
    fn from(e: BuildError) -> Self {
        PythonBuildError::Build(e)
    }
}

/// The Python module name of a game: its name in snake case (`ConnectFour` →
/// `connect_four`, `Tic-tac-toe` → `tic_tac_toe`); `game` when nothing is left.
pub fn module_name(game: &str) -> String {
    let chars: Vec<char> = game.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase() && i > 0 && !out.is_empty() && !out.ends_with('_') {
                let prev = chars[i - 1];
                let next_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
                if prev.is_ascii_lowercase()
                    || prev.is_ascii_digit()
                    || (prev.is_ascii_uppercase() && next_lower)
                {
                    out.push('_');
                }
            }
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    let out = out.trim_end_matches('_').to_string();
    match out.chars().next() {
        None => "game".to_string(),
        Some(c) if c.is_ascii_digit() => format!("game_{out}"),
        Some(_) => out,
    }
}

/// The `tgdl-python` crate beside a runtime directory.
fn bindings_path(runtime: &Path) -> Option<PathBuf> {
    let crate_dir = runtime.parent()?.join("tgdl-python");
    crate_dir.join("Cargo.toml").is_file().then_some(crate_dir)
}

/// The files of the maturin project of a game.
struct PythonProject {
    module: String,
    hash: u64,
    cargo_toml: String,
    pyproject: String,
    lib_rs: String,
    game_rs: String,
    init_py: String,
    stubs: String,
}

impl PythonProject {
    fn new(name: &str, code: &str, runtime: &Path, bindings: &Path) -> PythonProject {
        let module = module_name(name);
        let lib_rs = format!(
            "// Generated by tgdlc {VERSION}: the Python module of the game. Do not edit; tgdlc rewrites this project.\n\
             mod game;\n\n\
             tgdl_python::python_game!({module}, game::Game);\n"
        );
        let fill = |template: &str| {
            template.replace("{module}", &module).replace("{name}", name).replace("{version}", VERSION)
        };
        let stubs = fill(STUBS);
        let init_py = fill(INIT_PY);
        let mut hash = Fnv64::default();
        hash.field(VERSION.as_bytes());
        hash.field(runtime.to_string_lossy().as_bytes());
        hash.field(lib_rs.as_bytes());
        hash.field(stubs.as_bytes());
        hash.field(init_py.as_bytes());
        hash.field(code.as_bytes());
        let hash = hash.finish();
        let cargo_toml = format!(
            "# Generated by tgdlc {VERSION}. Do not edit; tgdlc rewrites this project.\n\
             [package]\n\
             name = \"{package}-py-{hash:016x}\"\n\
             version = \"0.1.0\"\n\
             edition = \"2024\"\n\
             publish = false\n\n\
             [lib]\n\
             name = \"{module}\"\n\
             crate-type = [\"cdylib\"]\n\n\
             [dependencies]\n\
             tgdl-runtime = {{ path = {} }}\n\
             tgdl-python = {{ path = {}, features = [\"extension-module\"] }}\n\n\
             [profile.release]\n\
             opt-level = 3\n\
             codegen-units = 1\n\
             lto = \"thin\"\n\n\
             # A project of its own, even inside another workspace's directory.\n\
             [workspace]\n",
            toml_string(&runtime.to_string_lossy()),
            toml_string(&bindings.to_string_lossy()),
            package = module.replace('_', "-"),
        );
        let pyproject = format!(
            "# Generated by tgdlc {VERSION}. Do not edit; tgdlc rewrites this project.\n\
             [build-system]\n\
             requires = [\"maturin>=1.5,<2\"]\n\
             build-backend = \"maturin\"\n\n\
             [project]\n\
             name = \"tgdl-{dist}\"\n\
             version = \"0.1.0\"\n\
             description = {}\n\
             requires-python = \">=3.9\"\n\
             # The PettingZoo environment, the observation encoder, `python -m tgdl_ray` and\n\
             # the OpenSpiel game:\n\
             # shared by every game, written beside this wheel by tgdlc.\n\
             dependencies = [\"{SUPPORT}=={VERSION}\"]\n\n\
             [project.optional-dependencies]\n\
             pettingzoo = [\"{SUPPORT}[pettingzoo]=={VERSION}\"]\n\
             ray = [\"{SUPPORT}[ray]=={VERSION}\"]\n\
             openspiel = [\"{SUPPORT}[openspiel]=={VERSION}\"]\n\n\
             [tool.maturin]\n\
             module-name = \"{module}._engine\"\n\
             python-source = \"python\"\n\
             bindings = \"pyo3\"\n",
            toml_string(&format!("The {name} engine generated by tgdlc")),
            dist = module.replace('_', "-"),
        );
        PythonProject {
            module,
            hash,
            cargo_toml,
            pyproject,
            lib_rs,
            game_rs: code.to_string(),
            init_py,
            stubs,
        }
    }

    fn dir_name(&self) -> String {
        format!("{}-{:016x}", self.module, self.hash)
    }
}

/// A built wheel.
#[derive(Clone, Debug)]
pub struct BuiltWheel {
    pub wheel: PathBuf,
    /// The Python module name (`import <module>`).
    pub module: String,
    pub project: PathBuf,
    /// The wheel of the `tgdl` support package the game's wheel requires, beside it.
    pub support: PathBuf,
}

/// The distribution of what every game wheel shares (PettingZoo, observations, Ray).
pub const SUPPORT: &str = "tgdl";

/// The `tgdl` support wheel: the `.py` files of `<bindings>/python/`, written to
/// `out_dir` (atomically: game builds may run side by side).
pub fn write_support_wheel(bindings: &Path, out_dir: &Path) -> Result<PathBuf, PythonBuildError> {
    let dir = bindings.join("python");
    let read_error = |error| PythonBuildError::NoSupport { dir: dir.clone(), error };
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for entry in std::fs::read_dir(&dir).map_err(read_error)? {
        let path = entry.map_err(read_error)?.path();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if name.ends_with(".py") && path.is_file() {
            files.push((name, std::fs::read(&path).map_err(read_error)?));
        }
    }
    if files.is_empty() {
        let error = std::io::Error::new(std::io::ErrorKind::NotFound, "no .py files");
        return Err(PythonBuildError::NoSupport { dir, error });
    }
    files.sort();
    let metadata: Vec<String> = [
        "Summary: What every TGDL game wheel shares: the PettingZoo environment, the observation encoder, simulation on Ray, OpenSpiel games",
        "Requires-Python: >=3.9",
        "Provides-Extra: pettingzoo",
        "Requires-Dist: pettingzoo>=1.24; extra == \"pettingzoo\"",
        "Requires-Dist: numpy; extra == \"pettingzoo\"",
        "Provides-Extra: ray",
        "Requires-Dist: ray>=2.9; extra == \"ray\"",
        "Provides-Extra: openspiel",
        "Requires-Dist: open_spiel; extra == \"openspiel\"",
        "Requires-Dist: numpy; extra == \"openspiel\"",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let generator = format!("tgdlc {VERSION}");
    let wheel = wheel::PureWheel {
        name: SUPPORT,
        version: VERSION,
        metadata: &metadata,
        generator: &generator,
        files: &files,
    };
    let target = out_dir.join(wheel.file_name());
    let partial = out_dir.join(format!(".{}.partial-{}", wheel.file_name(), std::process::id()));
    std::fs::write(&partial, wheel.to_bytes()).map_err(io("write", &partial))?;
    if let Err(e) = std::fs::rename(&partial, &target) {
        let _ = std::fs::remove_file(&partial);
        return Err(io("write", &target)(e).into());
    }
    Ok(target)
}

/// Builds the wheel of a generated engine into `out_dir`. `name` names the game (the
/// `game` directive); `code` is the engine the compiler generated
/// (`tgdl_compiler::Compilation::generated`).
pub fn build_python(
    name: &str,
    code: &str,
    out_dir: &Path,
    opts: &BuildOptions,
) -> Result<BuiltWheel, PythonBuildError> {
    let cache = cache_dir()?;
    let runtime = runtime_path()?;
    let bindings = bindings_path(&runtime)
        .ok_or_else(|| PythonBuildError::NoBindings { path: runtime.join("..").join("tgdl-python") })?;
    let bindings = std::fs::canonicalize(&bindings).unwrap_or(bindings);
    let project = PythonProject::new(name, code, &runtime, &bindings);
    let dir = cache.join("python").join(project.dir_name());
    let src = dir.join("src");
    std::fs::create_dir_all(&src).map_err(io("create", &src))?;
    let package = dir.join("python").join(&project.module);
    std::fs::create_dir_all(&package).map_err(io("create", &package))?;
    write_if_changed(&dir.join("Cargo.toml"), &project.cargo_toml)?;
    write_if_changed(&dir.join("pyproject.toml"), &project.pyproject)?;
    write_if_changed(&package.join("__init__.py"), &project.init_py)?;
    write_if_changed(&package.join("__init__.pyi"), &project.stubs)?;
    write_if_changed(&package.join("py.typed"), "")?;
    write_if_changed(&src.join("lib.rs"), &project.lib_rs)?;
    write_if_changed(&src.join("game.rs"), &project.game_rs)?;
    let lock = runtime.join("..").join("Cargo.lock");
    if let Ok(text) = std::fs::read_to_string(lock) {
        write_if_changed(&dir.join("Cargo.lock"), &text)?;
    }
    std::fs::create_dir_all(out_dir).map_err(io("create", out_dir))?;
    let out_dir = std::fs::canonicalize(out_dir).unwrap_or_else(|_| out_dir.to_path_buf());

    if opts.status {
        eprintln!("   Compiling {} (Python wheel)", project.module);
    }
    let maturin =
        std::env::var_os("TGDL_MATURIN").filter(|m| !m.is_empty()).unwrap_or_else(|| "maturin".into());
    let mut cmd = Command::new(&maturin);
    cmd.arg("build")
        .arg("--release")
        .arg("--manifest-path")
        .arg(dir.join("Cargo.toml"))
        .arg("--out")
        .arg(&out_dir)
        .env("CARGO_TARGET_DIR", cache.join("target"))
        .stdin(Stdio::null());
    let started = std::time::SystemTime::now();
    let (status, output) = if opts.verbose {
        let status =
            cmd.status().map_err(|error| PythonBuildError::NoMaturin { maturin: maturin.clone(), error })?;
        (status, String::new())
    } else {
        let out =
            cmd.output().map_err(|error| PythonBuildError::NoMaturin { maturin: maturin.clone(), error })?;
        let mut text = String::from_utf8_lossy(&out.stderr).into_owned();
        text.push_str(&String::from_utf8_lossy(&out.stdout));
        (out.status, text)
    };
    if !status.success() {
        return Err(PythonBuildError::MaturinFailed { project: dir, output });
    }
    // The newest wheel of this distribution in the output directory.
    let prefix = format!("tgdl_{}-", project.module);
    let wheel = std::fs::read_dir(&out_dir)
        .map_err(io("read", &out_dir))?
        .flatten()
        .filter(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n.starts_with(&prefix) && n.ends_with(".whl")
        })
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .filter(|(modified, _)| *modified >= started - std::time::Duration::from_secs(2))
        .max()
        .map(|(_, path)| path)
        .ok_or(PythonBuildError::NoWheel { dir: out_dir.clone() })?;
    let support = write_support_wheel(&bindings, &out_dir)?;
    if opts.status {
        eprintln!(
            "       Wrote `{}` (required by the game's wheel: `pip install --find-links {} {}`)",
            support.display(),
            out_dir.display(),
            wheel.display()
        );
    }
    Ok(BuiltWheel { wheel, module: project.module, project: dir, support })
}

/// The `__init__.py` of every game package (`{module}`, `{name}` and `{version}` are
/// filled in): the native module's names, and the shared Python parts bound to this game.
const INIT_PY: &str = r#""""The {name} engine generated by tgdlc {version} (docs/python.md).

    import {module}
    state = {module}.Game().new_state(seed=42)
    state = {module}.Game().new_initial_state()  # explicit chance: chance nodes are states
    env = {module}.env()                       # a PettingZoo AEC environment
    env = {module}.parallel_env()              # a PettingZoo Parallel environment
    encoder = {module}.observation_encoder()   # observations as fixed-shape arrays
    vec = {module}.VectorEnv(1024, seed=0)     # 1,024 games stepped together, as NumPy arrays

Simulation on Ray: `python -m tgdl_ray simulate {module} -n 20000 --seed 5`.
With OpenSpiel installed, importing this package registers the game:
`pyspiel.load_game("tgdl_{module}")`.
"""

import sys as _sys

from ._engine import *  # noqa: F401,F403 (Game, State, RuleError, simulate, ...)
from ._engine import _restore_state  # noqa: F401 (unpickling a State calls it)

__version__ = "{version}"


def env(**kwargs):
    """A PettingZoo AEC environment of this game: `tgdl_pettingzoo.TgdlEnv(module, **kwargs)`
    (needs `pettingzoo` and `numpy`)."""
    from tgdl_pettingzoo import TgdlEnv

    return TgdlEnv(_sys.modules[__name__], **kwargs)


def parallel_env(**kwargs):
    """A PettingZoo Parallel environment of this game (the players of a round of
    simultaneous choices act in one step): `tgdl_pettingzoo.TgdlParallelEnv(module,
    **kwargs)` (needs `pettingzoo` and `numpy`)."""
    from tgdl_pettingzoo import TgdlParallelEnv

    return TgdlParallelEnv(_sys.modules[__name__], **kwargs)


def observation_encoder(players=None, **kwargs):
    """The fixed-shape array encoding of this game's observations:
    `tgdl_observation.ObservationEncoder(module, players, **kwargs)` (needs `numpy`)."""
    from tgdl_observation import ObservationEncoder

    return ObservationEncoder(_sys.modules[__name__], players, **kwargs)


def _register_with_openspiel():
    """Registers the game with OpenSpiel as `tgdl_{module}` when `pyspiel` can be imported
    (`tgdl_openspiel`); without OpenSpiel, nothing happens."""
    import importlib.util

    if importlib.util.find_spec("pyspiel") is None:
        return
    try:
        import tgdl_openspiel
    except Exception as e:  # a broken OpenSpiel must not break the game
        import warnings

        warnings.warn(f"{module} is not registered with OpenSpiel: importing pyspiel failed: {e}")
        return
    tgdl_openspiel.register(_sys.modules[__name__])


_register_with_openspiel()
"#;

/// The type stubs of every game module (`{module}` and `{name}` are filled in).
const STUBS: &str = r#""""The {name} engine generated by tgdlc (docs/python.md)."""

from typing import Any, Dict, List, Optional, Tuple

__version__: str

NAME: str
"""The game's name (its `game` directive)."""
SOURCE: str
"""The main .tgdl file the engine was generated from."""
MIN_PLAYERS: int
MAX_PLAYERS: int
PARAMETERS: Dict[str, Any]
"""The game's parameters with their defaults: `Game(**PARAMETERS)` is the default variant."""
TERMINAL: int
"""`State.current_player()` once the game has ended (-1)."""
CHANCE: int
"""`State.current_player()` at a chance node of a game with explicit chance (-2)."""
SIMULTANEOUS: int
"""`State.current_player()` at the start of a round of simultaneous choices (-2, OpenSpiel's
`PlayerId.SIMULTANEOUS`; the same number as CHANCE: `is_simultaneous_node()` tells them apart)."""
HAS_HIDDEN_INFORMATION: bool
HAS_SIMULTANEOUS_TURNS: bool
"""Whether the game has rounds where players choose at the same time (`simultaneous`)."""

class RuleError(Exception):
    """A rule of the game failed at run time."""

    location: str
    """`file:line:column` of the rule in the .tgdl source."""
    message: str

class Game:
    """{name} for a number of players (default: the game's minimum)."""

    def __init__(self, players: Optional[int] = None, **params: Any) -> None:
        """`params`: values for the game's parameters by name (`Game(dice=2)`)."""
    @property
    def players(self) -> int: ...
    @property
    def params(self) -> Dict[str, Any]:
        """The values of the game's parameters, by name."""
    @property
    def name(self) -> str: ...
    def new_state(self, seed: int = 0) -> State:
        """A new game started with `seed` (setup has run): chance is drawn from the seed."""
    def new_initial_state(self) -> State:
        """A new game with explicit chance: each chance event is a chance node."""
    def simulate(
        self,
        n: int,
        seed: int = 0,
        threads: int = 0,
        max_decisions: Optional[int] = None,
        seats: Optional[List[str]] = None,
    ) -> str:
        """The JSON report of `tgdlc simulate -n N --seed S --json` (runs without the GIL)."""
    def simulate_range(
        self,
        start: int,
        end: int,
        seed: int = 0,
        max_decisions: Optional[int] = None,
        seats: Optional[List[str]] = None,
    ) -> str:
        """The tallies (JSON) of games start..end of a simulation; see `merge_tallies`."""

class State:
    """A game in progress or ended; cloneable and picklable (seed, players, actions)."""

    @property
    def seed(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def explicit_chance(self) -> bool:
        """Whether chance events are chance nodes (Game.new_initial_state())."""
    def current_player(self) -> int:
        """The seat that decides now; SIMULTANEOUS (-2) at the start of a round of simultaneous
        choices, CHANCE (-2) at a chance node, or TERMINAL (-1)."""
    def deciding_player(self) -> int:
        """The seat apply_action chooses for (in a round, the first yet to choose); CHANCE or TERMINAL."""
    def is_chance_node(self) -> bool: ...
    def is_simultaneous_node(self) -> bool:
        """Whether a round of simultaneous choices starts here (nobody in it has chosen)."""
    def round(self) -> Optional[Tuple[List[int], List[bool]]]:
        """The round under way: its players (seat order) and whether each has chosen."""
    def chance_outcomes(self) -> List[Tuple[int, float]]:
        """At a chance node: (action, probability) of each outcome; ValueError at a random()."""
    def legal_actions(self, player: Optional[int] = None) -> List[int]:
        """The indices of the current options (or chance's outcomes): 0..len(options). With
        `player`: that seat's options now (its menu in a round; empty when it does not choose)."""
    def action_labels(self, player: Optional[int] = None) -> List[str]:
        """The labels of legal_actions(player), as the deciding seat (or `player`) reads them."""
    def action_label(self, action: int) -> str: ...
    def prompt(self) -> str: ...
    def apply_action(self, action: int) -> None:
        """Applies an option; raises RuleError (with its location) when a rule fails."""
    def apply_actions(self, actions: List[int]) -> None:
        """One action per player (OpenSpiel's apply_actions): each player with options gives
        one, the others 0; ValueError for a bad list (nothing applied), RuleError if a rule fails."""
    def clone(self) -> State: ...
    def is_terminal(self) -> bool: ...
    def returns(self) -> List[float]:
        """The payoffs when the game ended with them; else 1 for first place, 0 for last,
        evenly between, 0.5 each in a draw; zeros before the end or after a rule error."""
    def observation(self, player: Optional[int] = None) -> str:
        """JSON of what seat `player` may see (None: a spectator)."""
    def observation_dict(self, player: Optional[int] = None) -> Dict[str, Any]:
        """What seat `player` may see as Python data: viewer, view, hands, log."""
    def observation_text(self, player: Optional[int] = None, log_lines: int = 5) -> str:
        """What seat `player` may see, drawn as the terminal draws it."""
    def agent_action(self, kind: str = "mcts", seed: int = 0) -> int:
        """The option an agent (random, mcts, mcts:ITERATIONS, mcts:SECONDSs) chooses now."""
    def error(self) -> Optional[Tuple[str, str]]:
        """(location, message) of the rule error that stopped the game."""
    def outcome(self) -> Optional[List[List[int]]]:
        """The final ranking: places[0] holds the players in first place."""
    def result(self) -> Optional[str]:
        """The result as play prints it: "player 0 wins", "the players lose", "draw"."""
    def team(self) -> Optional[List[int]]:
        """A team result's winners (all players, or none when they lost together); None for a ranking."""
    def history(self) -> List[int]:
        """The actions applied since the start (chance's outcomes too, with explicit chance)."""
    def information_state_string(self, player: int) -> str:
        """Seat `player`'s information state (perfect recall) as text; explicit chance only."""
    def information_events(self, player: int) -> List[Tuple[str, int, int, str, str]]:
        """Seat `player`'s information state as events: (kind, player, option, label, observation)."""
    def information_length(self, player: int) -> int: ...
    def __copy__(self) -> State: ...
    def __deepcopy__(self, memo: dict) -> State: ...

class VectorEnv:
    """`num_envs` seeded games stepped together in Rust (threads, no GIL), as NumPy arrays.
    Slot i plays games i, num_envs + i, ...; game k is Game(players).new_state(derive_seed(seed, k))."""

    def __init__(
        self,
        num_envs: int,
        seed: int = 0,
        players: Optional[int] = None,
        threads: Optional[int] = None,
        max_actions: Optional[int] = None,
        max_decisions: Optional[int] = None,
        observations: bool = True,
        encoder: Any = None,
        **params: Any,
    ) -> None: ...
    def reset(self, seed: Optional[int] = None) -> Tuple[Any, Any, Any]:
        """Starts games 0..num_envs of `seed` (None: the vector's): (observations, masks, players)."""
    def observe(self) -> Tuple[Any, Any, Any]:
        """(observations, masks, players) of the games as they stand."""
    def step(self, actions: Any) -> Tuple[Any, Any, Any, Any, Any]:
        """Applies one option index per game: (observations, masks, players, rewards, done)."""
    @property
    def truncated(self) -> Any:
        """The games the last step ended at max_decisions."""
    @property
    def failed(self) -> Any:
        """The games the last step ended on a rule error."""
    def game_indices(self) -> Any: ...
    def seeds(self) -> Any: ...
    def state(self, i: int) -> State:
        """Slot i's game as a State (its seed and actions replayed)."""
    @property
    def num_envs(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def threads(self) -> int: ...
    @property
    def num_actions(self) -> int:
        """The width of the masks."""
    @property
    def max_decisions(self) -> int: ...
    @property
    def observation_size(self) -> int: ...
    @property
    def encoder(self) -> Any:
        """The ObservationEncoder whose layout the observations have (None without observations)."""
    def __len__(self) -> int: ...

def simulate(
    n: int,
    seed: int = 0,
    threads: int = 0,
    players: Optional[int] = None,
    max_decisions: Optional[int] = None,
    seats: Optional[List[str]] = None,
) -> str:
    """The JSON report of `tgdlc simulate -n N --seed S --json` (runs without the GIL)."""

def simulate_range(
    start: int,
    end: int,
    seed: int = 0,
    players: Optional[int] = None,
    max_decisions: Optional[int] = None,
    seats: Optional[List[str]] = None,
) -> str:
    """The tallies (JSON) of games start..end of a simulation with `seed`."""

def merge_tallies(tallies: List[str], seconds: Optional[float] = None) -> str:
    """The `simulate --json` report of tallies covering games 0..n once each."""

def explore(
    players: Optional[int] = None, max_nodes: int = 1000000, playouts: int = 200, seed: int = 0, **params: Any
) -> str:
    """What a walk of the game tree with explicit chance finds (JSON): max_actions, max_decisions, ..."""

class RandomAgent:
    """The runtime's random agent: `RandomAgent(seat_seed(S, p))` plays seat p as `--seed S`."""

    def __init__(self, seed: int) -> None: ...
    def pick(self, options: int) -> Optional[int]: ...

def seat_seed(game_seed: int, seat: int) -> int: ...
def derive_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a simulation with `seed`."""

def set_limits(
    loop_steps: Optional[int] = None,
    call_depth: Optional[int] = None,
    event_runs: Optional[int] = None,
    string_bytes: Optional[int] = None,
    list_items: Optional[int] = None,
) -> Dict[str, int]:
    """Sets the engines' budgets for the games started from now on in this process."""

def limits() -> Dict[str, int]:
    """The engines' budgets in force: loop_steps, call_depth, event_runs, string_bytes, list_items."""

def env(**kwargs: Any) -> Any:
    """A PettingZoo AEC environment of this game (tgdl_pettingzoo.TgdlEnv)."""

def parallel_env(**kwargs: Any) -> Any:
    """A PettingZoo Parallel environment of this game (tgdl_pettingzoo.TgdlParallelEnv)."""

def observation_encoder(players: Optional[int] = None, **kwargs: Any) -> Any:
    """The fixed-shape array encoding of this game's observations (tgdl_observation)."""
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_names_are_snake_case() {
        assert_eq!(module_name("ConnectFour"), "connect_four");
        assert_eq!(module_name("TicTacToe"), "tic_tac_toe");
        assert_eq!(module_name("Tic-tac-toe"), "tic_tac_toe");
        assert_eq!(module_name("HTTPGame2"), "http_game2");
        assert_eq!(module_name("4InARow"), "game_4_in_a_row");
        assert_eq!(module_name("__"), "game");
    }

    #[test]
    fn the_project_is_a_cdylib_of_the_module() {
        let p = PythonProject::new("ConnectFour", "code", Path::new("/rt"), Path::new("/py"));
        assert!(p.cargo_toml.contains("name = \"connect_four\""));
        assert!(p.cargo_toml.contains("crate-type = [\"cdylib\"]"));
        assert!(p.lib_rs.contains("python_game!(connect_four, game::Game)"));
        assert!(p.pyproject.contains("module-name = \"connect_four._engine\""));
        assert!(p.pyproject.contains("python-source = \"python\""));
        assert!(p.pyproject.contains(&format!("dependencies = [\"tgdl=={VERSION}\"]")));
        assert!(p.stubs.contains("class State"));
        assert!(p.stubs.contains("class VectorEnv"));
        assert!(p.stubs.contains("def apply_actions(self, actions: List[int]) -> None:"));
        assert!(p.init_py.contains("from ._engine import *"));
        assert!(p.init_py.contains("def parallel_env(**kwargs):"));
        assert!(p.init_py.contains("python -m tgdl_ray simulate connect_four"));
    }

    #[test]
    fn the_support_wheel_holds_the_shared_python_modules() {
        let bindings = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("tgdl-python");
        let out = std::env::temp_dir().join(format!("tgdl-support-wheel-{}", std::process::id()));
        std::fs::create_dir_all(&out).unwrap();
        let support = write_support_wheel(&bindings, &out).unwrap();
        assert_eq!(
            support.file_name().unwrap().to_string_lossy(),
            format!("tgdl-{VERSION}-py3-none-any.whl")
        );
        let bytes = std::fs::read(&support).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        for module in ["tgdl_pettingzoo.py", "tgdl_ray.py", "tgdl_observation.py", "tgdl_openspiel.py"] {
            assert!(text.contains(&format!("{module},sha256=")), "{module} is not in the RECORD");
        }
        std::fs::remove_dir_all(&out).unwrap();
    }
}
