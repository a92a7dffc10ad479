//! Which optimisations the plan may use. Each names one analysis whose result changes
//! only how fast the generated engine runs, never what it does: with every one off
//! ([`Options::none`]) the generator is plain (every number a double, every input's
//! candidates walked in full, every menu built in full), and it plays the same games.

/// The optimisations the plan may use; [`Options::all`] (the default) is the generator
/// as it ships.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Number locals and function results that only hold small whole numbers are `i64`
    /// (`plan::whole`); off, every number is a double.
    pub whole_numbers: bool,
    /// Hierarchies whose classes have few attributes between them keep every attribute in
    /// the root struct (`plan::layout`); off, attributes of derived classes live in the
    /// variants that have them.
    pub flat_hierarchies: bool,
    /// An input whose filter opens with guards on the candidate's coordinates walks only
    /// the cells they allow (`plan::candidates`, `tgdl_runtime::domain`).
    pub input_domains: bool,
    /// An input whose filter opens by requiring one object (`to == E`) tries it alone.
    pub known_objects: bool,
    /// An input whose filter opens by requiring membership of a list (`L.contains(c)`)
    /// tries the list's objects alone.
    pub listed_members: bool,
    /// Menu inputs whose filter opens with an ownership test walk the active player's
    /// tiles, from sets the world keeps (`plan::owners`, `tgdl_runtime::owners`).
    pub owner_indexes: bool,
    /// Inputs over a class that shares its arena walk a list the world keeps of that
    /// class's objects (`plan::instances`, `tgdl_runtime::instances`).
    pub class_instances: bool,
    /// Menus whose every action picks a board tile by its own attributes are kept between
    /// moves (`plan::kept`, `tgdl_runtime::kept`).
    pub kept_menus: bool,
    /// A string local compared only with literals is held as the literal it equals
    /// (`plan::coded`).
    pub coded_strings: bool,
}

impl Options {
    /// Every optimisation.
    pub const fn all() -> Options {
        Options {
            whole_numbers: true,
            flat_hierarchies: true,
            input_domains: true,
            known_objects: true,
            listed_members: true,
            owner_indexes: true,
            class_instances: true,
            kept_menus: true,
            coded_strings: true,
        }
    }

    /// No optimisation: the plain generator.
    pub const fn none() -> Options {
        Options {
            whole_numbers: false,
            flat_hierarchies: false,
            input_domains: false,
            known_objects: false,
            listed_members: false,
            owner_indexes: false,
            class_instances: false,
            kept_menus: false,
            coded_strings: false,
        }
    }
}

impl Default for Options {
    fn default() -> Options {
        Options::all()
    }
}
