//! Checks of hidden information (docs/hidden-information.md) that any generated game can be put through:
//!
//! - [`check`]: after every decision of seeded random games, for every seat and for
//!   spectators, every string the viewer receives leaves out what is hidden from it —
//!   searched for by text: the labels of hidden objects, `secret` values, lines told to
//!   others, the game's seed — and the observation shows what the viewer may see (their
//!   own hand in full, every other hand as counts equal to the real ones and its face-up
//!   objects by label, their secrets). The strings are the observation (view, hands,
//!   log), the menu as the viewer reads it (`Game::labels_for`: it holds each decision
//!   as the viewer read it when it was taken, what the history a server shows a seat and
//!   a trace written with `--trace-for` hold), and each new log line. [`seat_trace`]
//!   checks a trace written for one seat against the game it traced.
//! - [`determinization`]: at decision points of seeded random games, determinized games
//!   look the same to the deciding seat, really move the hidden objects (each reaches
//!   every hidden place of its class), and play on to a legal end.

use std::collections::{BTreeSet, HashMap};
use tgdl_play::trace::{SeatTrace, Trace};
use tgdl_play::{Agent, RandomAgent};
use tgdl_runtime::hidden::{Census, DeterminizeError, Observation, Place, Viewer};
use tgdl_runtime::information::SampleError;
use tgdl_runtime::view::Section;
use tgdl_runtime::{Choice, Engine, Game, Pick, Player, Rng, Rules, Status};

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

/// Plays `games` random games (seeds `first_seed..`) and checks every string each viewer
/// receives. A seed of six digits or more is searched for too (shorter ones are found in
/// any text).
pub fn check<R: Rules>(players: u32, first_seed: u64, games: u64) -> Result<Seen, String> {
    let mut seen = Seen::default();
    for seed in first_seed..first_seed + games {
        let mut game = Engine::<R>::start(players, seed).map_err(|e| e.to_string())?;
        let mut agent = RandomAgent::new(seed ^ 0x5eed);
        let seed_text = seed.to_string();
        let seed_text = (seed_text.len() >= 6).then_some(seed_text.as_str());
        loop {
            let at = |e: String, game: &Engine<R>| format!("seed {seed}, decision {}: {e}", game.decisions());
            check_point(&game, seed_text, &mut seen).map_err(|e| at(e, &game))?;
            match game.status() {
                Status::Decide(_) if game.decisions() < 2_000 => {
                    let i = agent.choose_in(&game).map_err(|e| e.to_string())?;
                    let before = game.clone();
                    game.apply(i).map_err(|e| e.to_string())?;
                    check_new_lines(&before, &game, &mut seen).map_err(|e| at(e, &game))?;
                }
                Status::Failed => return Err(format!("seed {seed}: {:?}", game.error())),
                _ => break,
            }
        }
    }
    Ok(seen)
}

/// Every seat, then spectators.
fn viewers(players: u32) -> Vec<Viewer> {
    (0..players).map(Viewer::Seat).chain([Viewer::Public]).collect()
}

/// What no string given to `viewer` may hold: the labels of the objects hidden from it
/// that no object it sees bears too (five Guards: one in its hand, one in another's),
/// and its hidden `secret` values that its observation does not show elsewhere — those
/// distinctive enough to search for. The census names every object that can be hidden,
/// wherever it is; objects of plain classes are never hidden (a character a Guard may
/// name reads as a card does), and the menu's check allows for them.
fn unseen<R: Rules>(game: &Engine<R>, viewer: Viewer) -> BTreeSet<String> {
    let (visible, hidden) = census_labels(game, viewer);
    let shown = shown(&game.observation(viewer));
    let secrets = game.world().secrets();
    let secret_values = secrets.iter().filter(|s| !s.seen_by(viewer)).map(|s| &s.value);
    hidden
        .into_iter()
        .filter(|h| !visible.iter().any(|v| v.contains(h.as_str())))
        .chain(secret_values.filter(|v| !shown.contains(v.as_str())).cloned())
        .filter(|h| searchable(h))
        .collect()
}

/// The full labels of the objects of the census that `viewer` sees, and of those hidden
/// from it.
fn census_labels<R: Rules>(game: &Engine<R>, viewer: Viewer) -> (Vec<String>, BTreeSet<String>) {
    let all = tgdl_runtime::hidden::Seen::all();
    let world = game.world();
    let (mut visible, mut hidden) = (Vec::new(), BTreeSet::new());
    for o in &world.census().objects {
        let label = world.pick_label(&Pick::Object(o.tag, o.index), &all);
        if o.hidden_from(viewer) {
            hidden.insert(label);
        } else {
            visible.push(label);
        }
    }
    (visible, hidden)
}

/// The public log lines a decision wrote (lines told to one player are theirs: that only
/// they read them is checked at every point): none names what was hidden from a viewer
/// both before and after the decision (a card shown in the move may be named).
fn check_new_lines<R: Rules>(before: &Engine<R>, after: &Engine<R>, seen: &mut Seen) -> Result<(), String> {
    if !Engine::<R>::has_hidden_information() {
        return Ok(());
    }
    // The new public lines as the players read them.
    let core = after.world().core();
    let old = before.world().core().log.len();
    let public: Vec<&String> = core
        .log
        .iter()
        .enumerate()
        .skip(old)
        .filter(|(i, _)| !core.told.iter().any(|(at, _)| at == i))
        .map(|(i, line)| core.public_forms.iter().find(|(at, _)| *at == i).map_or(line, |(_, form)| form))
        .collect();
    if public.is_empty() {
        return Ok(());
    }
    for viewer in viewers(after.players()) {
        let was = unseen(before, viewer);
        for h in unseen(after, viewer).intersection(&was) {
            seen.searched += 1;
            if let Some(line) = public.iter().find(|line| line.contains(h.as_str())) {
                return Err(format!("{viewer} reads the log line {line:?}, naming {h:?}, hidden from them"));
            }
        }
    }
    Ok(())
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

fn check_point<R: Rules>(game: &Engine<R>, seed: Option<&str>, seen: &mut Seen) -> Result<(), String> {
    seen.points += 1;
    let players = game.players();
    if let Some(seed) = seed {
        // Seeds are never shown to players: they give away every hidden draw.
        for viewer in viewers(players) {
            let obs = game.observation(viewer);
            let texts = [shown(&obs), obs.log.join("\n"), game.labels_for(viewer).join("\n"), game.prompt()];
            if let Some(text) = texts.iter().find(|t| t.contains(seed)) {
                return Err(format!("{viewer} is shown the seed {seed}:\n{text}"));
            }
        }
    }
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
            if let Place::Hand(_) | Place::Outward(_) = o.place {
                *in_hands
                    .entry(
                        game.world()
                            .pick_label(&Pick::Object(o.tag, o.index), &tgdl_runtime::hidden::Seen::all()),
                    )
                    .or_default() += 2;
            }
        }
        // The counts miss a hidden object shown by name where the designer sees it too (a
        // table key, a list): a hidden label that no object the viewer sees bears must
        // not appear at all.
        let (visible, hidden_objects) = census_labels(game, viewer);
        let distinct: BTreeSet<&String> = hidden.iter().filter(|h| searchable(h)).collect();
        for &h in &distinct {
            seen.searched += 1;
            let mine = text.matches(h.as_str()).count();
            let designer = all_shown.matches(h.as_str()).count();
            if mine + in_hands.get(h).copied().unwrap_or(0) > designer {
                return Err(format!("{viewer} is shown {h:?}, hidden from them:\n{text}"));
            }
            let borne = visible.iter().any(|v| v.contains(h.as_str()));
            if mine > 0 && !borne && hidden_objects.contains(h) {
                return Err(format!(
                    "{viewer} is shown {h:?}, which only objects hidden from them bear:\n{text}"
                ));
            }
        }
        check_menu(game, viewer, &census, seen)?;
        // The log: the public lines and the lines told to this viewer, nothing else.
        // Public lines as the players read them (an object hidden from spectators when
        // the line was written in its hidden form).
        let mut told = core.told.iter().peekable();
        let mut expected = Vec::new();
        for (i, line) in core.log.iter().enumerate() {
            match told.next_if(|(at, _)| *at == i) {
                Some(&(_, to)) if viewer != Viewer::Seat(to.0) => {}
                Some(_) => expected.push(line.clone()),
                None => match core.public_forms.iter().find(|(at, _)| *at == i) {
                    Some((_, form)) => expected.push(form.clone()),
                    None => expected.push(line.clone()),
                },
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
            // Face-up objects are shown to everyone, in the hand and in a section of the view.
            if mine.face_up != real.face_up {
                return Err(format!(
                    "{viewer} sees the face-up objects of player {} as {:?}, not {:?}",
                    mine.player, mine.face_up, real.face_up
                ));
            }
            let section = format!("face up in the hand of player {}", mine.player);
            let listed = obs.view.sections.iter().find_map(|s| match s {
                Section::List { title, items, .. } if *title == section => Some(items),
                _ => None,
            });
            if mine.objects.is_none() && !mine.face_up.is_empty() && listed != Some(&mine.face_up) {
                return Err(format!("{viewer} is not shown {:?} in the view: {listed:?}", mine.face_up));
            }
            // The hand as the viewer may read it: the objects it sees by label (in the
            // designer's order), then those hidden from it in their hidden form, sorted;
            // listed to its holder, and to anyone who sees something of it (a hand held
            // facing out, a hidden card's public marks).
            let seen = tgdl_runtime::hidden::Seen::new(viewer, &census);
            let (mut visible, mut hidden, mut something) = (Vec::new(), Vec::new(), false);
            for o in census.objects.iter().filter(|o| match o.place {
                Place::Hand(p) | Place::Shown(p) | Place::Outward(p) => p.0 == mine.player,
                _ => false,
            }) {
                let form = game.world().pick_label(&Pick::Object(o.tag, o.index), &seen);
                if o.hidden_from(viewer) {
                    something |= form != tgdl_runtime::hidden::Seen::hidden_label(o.root);
                    hidden.push(form);
                } else {
                    something |= matches!(o.place, Place::Outward(_));
                    visible.push(form);
                }
            }
            hidden.sort();
            visible.extend(hidden);
            let expected = (viewer == Viewer::Seat(mine.player) || something).then_some(visible);
            if mine.objects != expected {
                return Err(format!(
                    "{viewer} sees the hand of player {} as {:?}, not {expected:?}",
                    mine.player, mine.objects
                ));
            }
            if viewer == Viewer::Seat(mine.player)
                && !census.objects.iter().any(|o| o.place == Place::Outward(Player(mine.player)))
                && mine.objects != real.objects
            {
                return Err(format!(
                    "{viewer} sees its own hand as {:?}, not {:?}",
                    mine.objects, real.objects
                ));
            }
        }
    }
    Ok(())
}

/// The menu as `viewer` reads it (its own, or another seat's decision to come) names no
/// object hidden from it: an answer that is such an object reads as its hidden form, and
/// no option holds the label of one ([`unseen`]) unless an object the options name and
/// the viewer sees bears it too.
fn check_menu<R: Rules>(
    game: &Engine<R>,
    viewer: Viewer,
    census: &Census,
    seen: &mut Seen,
) -> Result<(), String> {
    let labels = game.labels_for(viewer);
    let world = game.world();
    let all = tgdl_runtime::hidden::Seen::all();
    let hidden_object = |tag: u32, index: u32| {
        census
            .objects
            .iter()
            .find(|o| (o.tag, o.index) == (tag, index) && o.hidden_from(viewer))
            .map(|o| o.root)
    };
    // Objects the options name that the viewer sees (a Guard's guess names a character
    // that reads as a card does).
    let mut visible: Vec<String> = Vec::new();
    for (choice, label) in game.options().iter().zip(&labels) {
        let object = match choice {
            Choice::Pick(Pick::Object(tag, index)) => Some((*tag, *index)),
            Choice::Move(mv) => world.move_subject(mv),
            _ => None,
        };
        let Some((tag, index)) = object else { continue };
        match hidden_object(tag, index) {
            Some(root) if matches!(choice, Choice::Pick(_)) => {
                seen.searched += 1;
                let form = tgdl_runtime::hidden::Seen::hidden_label(root);
                if !label.starts_with(&form) {
                    return Err(format!("{viewer} reads the answer {label:?}, an object hidden from them"));
                }
            }
            Some(_) => {}
            None => visible.push(world.pick_label(&Pick::Object(tag, index), &all)),
        }
    }
    for h in unseen(game, viewer).iter().filter(|h| !visible.iter().any(|v| v.contains(h.as_str()))) {
        seen.searched += 1;
        if let Some(label) = labels.iter().find(|l| l.contains(h.as_str())) {
            return Err(format!("{viewer} reads the option {label:?}, naming {h:?}, hidden from them"));
        }
    }
    Ok(())
}

/// A trace written for one seat (`play --trace T --trace-for P`, `text` as written) against
/// the full trace of the same game: replayed, each observation it holds is the seat's,
/// each decision reads as the seat read it when it was taken and names nothing hidden
/// from the seat then, and the file holds no seed. Returns how many hidden texts were
/// searched for.
pub fn seat_trace<R: Rules>(full: &Trace, mine: &SeatTrace, text: &str) -> Result<u64, String> {
    let seed = full.seed.to_string();
    if seed.len() >= 6 && text.contains(&seed) {
        return Err(format!("the trace of player {} holds the seed {seed}", mine.seat));
    }
    if mine.decisions.len() != full.decisions.len() || mine.observations.len() != full.decisions.len() + 1 {
        return Err(format!("the trace of player {} is not of the whole game", mine.seat));
    }
    let mut game = Engine::<R>::start_with(&tgdl_runtime::Start::seeded(full.players, full.seed))
        .map_err(|e| e.to_string())?;
    let viewer = Viewer::Seat(mine.seat);
    let mut searched = 0;
    for (k, (d, read)) in full.decisions.iter().zip(&mine.decisions).enumerate() {
        if game.observation(viewer) != mine.observations[k] {
            return Err(format!("before decision {k}, the trace of {viewer} holds another observation"));
        }
        let label = game.labels_for(viewer).swap_remove(d.index);
        if read.label != label || read.player != d.player {
            return Err(format!("decision {k}: the trace of {viewer} holds {read:?}, not {label:?}"));
        }
        for h in unseen(&game, viewer) {
            searched += 1;
            if read.label.contains(h.as_str()) {
                return Err(format!("decision {k}: {viewer} reads {:?}, naming {h:?}", read.label));
            }
        }
        game.apply(d.index).map_err(|e| e.to_string())?;
    }
    if Some(&game.observation(viewer)) != mine.observations.last() {
        return Err(format!("the trace of {viewer} ends on another observation"));
    }
    Ok(searched)
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
/// `(0, player, 0)`, a stack `(1, tag, deck)`, face up in a hand `(2, player, 0)`, or
/// public `(3, 0, 0)`.
type PlaceKey = (u8, u32, u32);

fn place_key(place: Place) -> PlaceKey {
    match place {
        Place::Hand(p) | Place::Outward(p) => (0, p.0, 0),
        Place::Stack { tag, deck, .. } => (1, tag, deck),
        Place::Shown(p) => (2, p.0, 0),
        Place::Public => (3, 0, 0),
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
    let samples = if R::pool_resampling() { samples } else { samples.min(REPLAYED_SAMPLES) };
    out.pooled = R::pool_resampling();
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
        let face_up = shown_in_hands(&game);
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
            // Face-up objects are known to every seat: each stays where it is, as it is.
            if shown_in_hands(&sample) != face_up {
                return Err(format!(
                    "seed {seed}, decision {}: a determinized game for player {} holds the face-up objects {:?}, not {face_up:?}",
                    game.decisions(),
                    p.0,
                    shown_in_hands(&sample)
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

/// The face-up objects of every hand, by holder and full label, sorted (several objects
/// may bear one label: which of them lies there is not seen).
fn shown_in_hands<R: Rules>(game: &Engine<R>) -> Vec<(u32, String)> {
    let all = tgdl_runtime::hidden::Seen::all();
    let mut out: Vec<(u32, String)> = game
        .world()
        .census()
        .objects
        .iter()
        .filter_map(|o| match o.place {
            Place::Shown(p) => Some((p.0, game.world().pick_label(&Pick::Object(o.tag, o.index), &all))),
            _ => None,
        })
        .collect();
    out.sort();
    out
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
