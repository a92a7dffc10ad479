//! Checks of hidden information (docs/hidden-information.md) that any generated game can be put through:
//!
//! - [`check`]: after every decision of seeded random games, for every seat and for
//!   spectators, the observation leaves out what is hidden from that viewer — searched
//!   for by text: the labels of hidden objects, `secret` values, lines told to others —
//!   and shows what the viewer may see (their own hand in full, every other hand as
//!   counts equal to the real ones, their secrets).
//! - [`determinization`]: at decision points of seeded random games, determinized games
//!   look the same to the deciding seat, really move the hidden objects (each reaches
//!   every hidden place of its class), and play on to a legal end.

use std::collections::{BTreeSet, HashMap};
use tgdl_play::{Agent, RandomAgent};
use tgdl_runtime::hidden::{DeterminizeError, Observation, Place, Viewer};
use tgdl_runtime::information::SampleError;
use tgdl_runtime::{Engine, Game, Pick, Rng, Rules, Status};

/// What [`check`] looked at.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Seen {
    /// Decision points checked (each for every seat and for spectators).
    pub points: u64,
    /// (point, viewer) pairs where something was hidden from the viewer.
    pub hiding: u64,
    /// Hidden texts searched for and not found.
    pub searched: u64,
}

/// Plays `games` random games (seeds `first_seed..`) and checks every observation.
pub fn check<R: Rules>(players: u32, first_seed: u64, games: u64) -> Result<Seen, String> {
    let mut seen = Seen::default();
    for seed in first_seed..first_seed + games {
        let mut game = Engine::<R>::start(players, seed).map_err(|e| e.to_string())?;
        let mut agent = RandomAgent::new(seed ^ 0x5eed);
        loop {
            check_point(&game, &mut seen)
                .map_err(|e| format!("seed {seed}, decision {}: {e}", game.decisions()))?;
            match game.status() {
                Status::Decide(_) if game.decisions() < 2_000 => {
                    let i = agent.choose_in(&game).map_err(|e| e.to_string())?;
                    game.apply(i).map_err(|e| e.to_string())?;
                }
                Status::Failed => return Err(format!("seed {seed}: {:?}", game.error())),
                _ => break,
            }
        }
    }
    Ok(seen)
}

/// The texts `obs` may show: the view and the hands (not the log: it is history).
fn shown(obs: &Observation) -> String {
    serde_json::to_string(&(&obs.view, &obs.hands)).expect("observations serialise")
}

/// Whether a hidden text is distinctive enough to search for (numbers and booleans
/// appear everywhere).
fn searchable(text: &str) -> bool {
    text.len() >= 3 && text.parse::<f64>().is_err() && text != "true" && text != "false" && text != "null"
}

fn check_point<R: Rules>(game: &Engine<R>, seen: &mut Seen) -> Result<(), String> {
    seen.points += 1;
    let players = game.players();
    if !Engine::<R>::has_hidden_information() {
        // Nothing can be hidden: nothing is, and every tenth point every seat is shown
        // the designer's view and log (drawing views is what costs).
        for viewer in (0..players).map(Viewer::Seat).chain([Viewer::Public]) {
            let hidden = game.hidden_from(viewer);
            if !hidden.is_empty() {
                return Err(format!("a game that hides nothing hides {hidden:?} from {viewer}"));
            }
            if seen.points % 10 == 1 {
                let (mine, all) = (game.observation(viewer), game.observation(Viewer::All));
                if (&mine.view, &mine.log) != (&all.view, &all.log) {
                    return Err(format!("{viewer} is shown {mine:?}, not everything"));
                }
            }
        }
        return Ok(());
    }
    let all = game.observation(Viewer::All);
    let all_shown = shown(&all);
    let core = game.world().core();
    let secrets = game.world().secrets();
    let census = game.world().census();
    let viewers = (0..players).map(Viewer::Seat).chain([Viewer::Public]);
    for viewer in viewers {
        let obs = game.observation(viewer);
        let text = shown(&obs);
        let hidden = game.hidden_from(viewer);
        if !hidden.is_empty() {
            seen.hiding += 1;
        }
        // The viewer's text is the designer's with hidden things left out: a text may
        // appear in it no more often than in the designer's, less the designer's
        // mentions of hidden hands (each hand object is listed twice: the hand's section
        // and `hands`). Several objects may share a label (five Guards): counting keeps
        // the search exact for them too.
        let mut in_hands: HashMap<String, usize> = HashMap::new();
        for o in census.objects.iter().filter(|o| o.hidden_from(viewer)) {
            if let Place::Hand(_) = o.place {
                *in_hands
                    .entry(
                        game.world()
                            .pick_label(&Pick::Object(o.tag, o.index), &tgdl_runtime::hidden::Seen::all()),
                    )
                    .or_default() += 2;
            }
        }
        let distinct: BTreeSet<&String> = hidden.iter().filter(|h| searchable(h)).collect();
        for h in distinct {
            seen.searched += 1;
            let mine = text.matches(h.as_str()).count();
            let designer = all_shown.matches(h.as_str()).count();
            if mine + in_hands.get(h).copied().unwrap_or(0) > designer {
                return Err(format!("{viewer} is shown {h:?}, hidden from them:\n{text}"));
            }
        }
        // The log: the public lines and the lines told to this viewer, nothing else.
        let mut told = core.told.iter().peekable();
        let mut expected = Vec::new();
        for (i, line) in core.log.iter().enumerate() {
            match told.next_if(|(at, _)| *at == i) {
                Some(&(_, to)) if viewer != Viewer::Seat(to.0) => {}
                _ => expected.push(line.clone()),
            }
        }
        if obs.log != expected {
            return Err(format!("{viewer} reads {:?}, not {expected:?}", obs.log));
        }
        // Secrets: none hidden from the viewer is listed; every one they may see is.
        for s in &secrets {
            let key = match s.object {
                Some((tag, index)) => {
                    format!(
                        "{} of {}",
                        s.attribute,
                        game.world()
                            .pick_label(&Pick::Object(tag, index), &tgdl_runtime::hidden::Seen::all())
                    )
                }
                None => s.attribute.to_string(),
            };
            let listed = text.contains(&format!("\"{key}\""));
            if listed != s.seen_by(viewer) {
                return Err(format!(
                    "{viewer}: secret {} listed: {listed}, may see it: {}",
                    s.attribute,
                    s.seen_by(viewer)
                ));
            }
        }
        // What the viewer may see is there: every hand's counts, their own hand in full.
        for (mine, real) in obs.hands.iter().zip(&all.hands) {
            if mine.counts != real.counts {
                return Err(format!(
                    "{viewer} sees the counts of player {} as {:?}, not {:?}",
                    mine.player, mine.counts, real.counts
                ));
            }
            let may = viewer == Viewer::Seat(mine.player);
            match (&mine.objects, may) {
                (Some(objects), true) if Some(objects) == real.objects.as_ref() => {}
                (None, false) => {}
                (objects, _) => {
                    return Err(format!("{viewer} sees the hand of player {} as {objects:?}", mine.player));
                }
            }
        }
    }
    Ok(())
}

/// What [`determinization`] sampled.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sampled {
    pub points: u64,
    pub samples: u64,
    /// Samples in which some hidden object is not where it really is.
    pub moved: u64,
    /// Points at which something was hidden from the deciding seat.
    pub hiding_points: u64,
    /// Whether the fast path drew the samples (redistribution) rather than replays.
    pub pooled: bool,
    /// Why no sample could be drawn, when the sampler found no consistent world.
    pub refused: Option<String>,
}

/// Where an object is, as far as determinization may move it (stacks as a whole): a hand
/// `(0, player, 0)`, a stack `(1, tag, deck)`, or public `(2, 0, 0)`.
type PlaceKey = (u8, u32, u32);

fn place_key(place: Place) -> PlaceKey {
    match place {
        Place::Hand(p) => (0, p.0, 0),
        Place::Stack { tag, deck, .. } => (1, tag, deck),
        Place::Public => (2, 0, 0),
    }
}

/// Determinizations per decision point of a game whose samples are drawn by replaying the
/// seat's information state (each replays the game from its start): fewer than the fast
/// path's.
pub const REPLAYED_SAMPLES: u64 = 20;

/// Plays `points` random games (seeds `first_seed..`), each to a different decision, and
/// determinizes there `samples` times for the deciding seat ([`REPLAYED_SAMPLES`] times
/// where samples are replayed).
pub fn determinization<R: Rules>(
    players: u32,
    first_seed: u64,
    points: u64,
    samples: u64,
) -> Result<Sampled, String> {
    let mut out = Sampled::default();
    let samples = if R::POOL_RESAMPLING { samples } else { samples.min(REPLAYED_SAMPLES) };
    out.pooled = R::POOL_RESAMPLING;
    for (k, seed) in (first_seed..first_seed + points).enumerate() {
        let start = tgdl_runtime::Start::observed::<Engine<R>>(players, seed.into());
        let mut game = Engine::<R>::start_with(&start).map_err(|e| e.to_string())?;
        let mut agent = RandomAgent::new(seed ^ 0x5eed);
        let stop_at = (k as u64 * 7) % 40;
        while game.decisions() < stop_at {
            match game.status() {
                Status::Decide(_) => {
                    let i = agent.choose_in(&game).map_err(|e| e.to_string())?;
                    game.apply(i).map_err(|e| e.to_string())?;
                }
                _ => break,
            }
        }
        let Status::Decide(p) = game.status() else { continue };
        out.points += 1;
        let real = game.observation(Viewer::Seat(p.0));
        let census = game.world().census();
        let hidden: Vec<_> =
            census.objects.iter().filter(|o| o.hidden_from(Viewer::Seat(p.0))).copied().collect();
        if !hidden.is_empty() {
            out.hiding_points += 1;
        }
        // The places each root class's hidden objects may go to, and where each went.
        let mut places_of: HashMap<u32, BTreeSet<PlaceKey>> = HashMap::new();
        for o in &hidden {
            places_of.entry(o.tag).or_default().insert(place_key(o.place));
        }
        let mut reached: HashMap<(u32, u32), BTreeSet<PlaceKey>> = HashMap::new();
        let mut rng = Rng::new(seed ^ 0xDE7E);
        for s in 0..samples {
            let sample = match game.determinize(p.0, &mut rng) {
                Ok(g) => g,
                Err(DeterminizeError::Sample(e @ SampleError::NoConsistentWorld { .. })) => {
                    out.refused = Some(e.to_string());
                    return Ok(out);
                }
                Err(e) => return Err(format!("seed {seed}: {e}")),
            };
            out.samples += 1;
            let seen = sample.observation(Viewer::Seat(p.0));
            if seen != real {
                return Err(format!(
                    "seed {seed}, decision {}: player {} sees a determinized game differently:\nreal: {}\nsample: {}",
                    game.decisions(),
                    p.0,
                    serde_json::to_string(&real).unwrap_or_default(),
                    serde_json::to_string(&seen).unwrap_or_default()
                ));
            }
            let after = sample.world().census();
            if after != census {
                out.moved += 1;
            }
            for o in after.objects.iter().filter(|o| o.hidden_from(Viewer::Seat(p.0))) {
                reached.entry((o.tag, o.index)).or_default().insert(place_key(o.place));
            }
            if s == 0 {
                play_out(sample, seed).map_err(|e| format!("seed {seed}: a determinized game: {e}"))?;
            }
        }
        if samples >= 500 {
            for o in &hidden {
                let want = &places_of[&o.tag];
                let got = reached.get(&(o.tag, o.index)).cloned().unwrap_or_default();
                if &got != want {
                    return Err(format!(
                        "seed {seed}: hidden object {}#{} reached {got:?} in {samples} samples, not every hidden place {want:?}",
                        o.root, o.index
                    ));
                }
            }
        }
    }
    Ok(out)
}

/// Plays a game on at random: it must end, or run out of decisions, without a rule error.
fn play_out<G: Game>(mut game: G, seed: u64) -> Result<(), String> {
    let mut agent = RandomAgent::new(seed ^ 0xE2D);
    for _ in 0..5_000 {
        match game.status() {
            Status::Decide(_) => {
                let i = agent.choose_in(&game).map_err(|e| e.to_string())?;
                game.apply(i).map_err(|e| e.to_string())?;
            }
            Status::Over => return Ok(()),
            Status::Failed => return Err(format!("{:?}", game.error())),
            // A world drawn from an information state meets its chance as events.
            Status::Chance => game.sample_chance(&mut Rng::new(seed)).map_err(|e| e.to_string())?,
        }
    }
    Ok(())
}

/// What [`information`] looked at.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Informed {
    /// Decision points where a second world was built and both were searched.
    pub points: u64,
    /// Of those, points where the second world's hidden content differs from the first's.
    pub differing: u64,
    /// Points where the search refused in both worlds (no consistent world found).
    pub refused: u64,
}

/// The information-state test: at decision points of seeded random games, a second world
/// with the same information state for the deciding seat but other hidden content — the
/// hidden objects redistributed where that is exact, otherwise a world drawn from the
/// seat's information state, which must read back as the same information state — is
/// searched by an MCTS agent with the same seed as the real game: its choice must be the
/// same. An agent that used anything its seat cannot see would tell them apart.
pub fn information<R: Rules>(
    players: u32,
    first_seed: u64,
    points: u64,
    iterations: u32,
) -> Result<Informed, String> {
    use tgdl_play::mcts::{Budget, MctsAgent};
    use tgdl_runtime::information::{InfoState, Sampler};
    let mut out = Informed::default();
    for (k, seed) in (first_seed..first_seed + points).enumerate() {
        let start = tgdl_runtime::Start::observed::<Engine<R>>(players, seed.into());
        let mut game = Engine::<R>::start_with(&start).map_err(|e| e.to_string())?;
        let mut agent = RandomAgent::new(seed ^ 0x5eed);
        // Early and later decisions alike: short games reach the first few only.
        const STOPS: [u64; 12] = [0, 1, 2, 5, 9, 14, 20, 3, 27, 35, 44, 54];
        let stop_at = STOPS[k % STOPS.len()];
        while game.decisions() < stop_at {
            match game.status() {
                Status::Decide(_) => {
                    let i = agent.choose_in(&game).map_err(|e| e.to_string())?;
                    game.apply(i).map_err(|e| e.to_string())?;
                }
                _ => break,
            }
        }
        let Status::Decide(p) = game.status() else { continue };
        let seat = Viewer::Seat(p.0);
        let mut rng = Rng::new(seed ^ 0x1f0);
        let other = match game.redistributed(p.0, &mut rng) {
            Some(other) => other,
            None => {
                let info = InfoState::of(&game, p.0).map_err(|e| format!("seed {seed}: {e}"))?;
                match Sampler::new(info.clone()).sample_with::<Engine<R>>(&mut rng, true) {
                    Ok(other) => {
                        let again = InfoState::of(&other, p.0).map_err(|e| format!("seed {seed}: {e}"))?;
                        if again != info {
                            return Err(format!(
                                "seed {seed}: the sampled world reads as another information state"
                            ));
                        }
                        other
                    }
                    Err(SampleError::NoConsistentWorld { .. }) => {
                        out.refused += 1;
                        continue;
                    }
                    Err(e) => return Err(format!("seed {seed}: {e}")),
                }
            }
        };
        if game.observation(seat) != other.observation(seat)
            || game.labels_for(seat) != other.labels_for(seat)
        {
            return Err(format!("seed {seed}: the second world looks different to player {}", p.0));
        }
        if game.view() != other.view() {
            out.differing += 1;
        }
        let choose = |g: &Engine<R>| {
            let mut mcts = MctsAgent::<Engine<R>>::new(Budget::Iterations(iterations), seed ^ 0x5ea7);
            mcts.choose_in(g).map_err(|e| e.to_string())
        };
        match (choose(&game), choose(&other)) {
            (Ok(a), Ok(b)) if a == b => out.points += 1,
            (Err(a), Err(b)) if a == b => out.refused += 1,
            (a, b) => {
                return Err(format!(
                    "seed {seed}, decision {}: the same information state for player {} gave {a:?} in the real game and {b:?} in the other",
                    game.decisions(),
                    p.0
                ));
            }
        }
    }
    Ok(out)
}
