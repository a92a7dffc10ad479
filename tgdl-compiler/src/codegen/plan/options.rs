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

#[cfg(test)]
mod tests {
    use super::Options;

    /// A game using most optimisations: a kept menu over board tiles, whole-number
    /// coordinates, a coded string local.
    const GAME: &str = "game G players 2;
        tile Cell { number n = 0; string mark = \"a\"; }
        board B { group Grid { geometry square; grid { Cell Cell Cell } } }
        global class Rules {
            action bump { trigger PlayerChoiceEvent; input Cell c { return c.n < 3; }
                effect { string m = c.mark; if (m == \"a\") { c.n += 1; } number x = c.x + 1; turn.pass(); } }
        }
        turn Alternate { default { return turn.active() + 1; } }
        setup { }";

    fn generated(options: &Options) -> String {
        let input = crate::Input::Text { name: "options.tgdl", text: GAME, base_dir: None };
        let compilation =
            crate::compile(input, &crate::Options { generate: Some(*options), ..Default::default() });
        compilation.generated.clone().unwrap_or_else(|| panic!("{}", compilation.render(false)))
    }

    /// Every optimisation on and off, and each one off alone: the code parses.
    fn every_choice() -> Vec<Options> {
        let mut out = vec![Options::all(), Options::none()];
        let fields: [fn(&mut Options) -> &mut bool; 9] = [
            |o| &mut o.whole_numbers,
            |o| &mut o.flat_hierarchies,
            |o| &mut o.input_domains,
            |o| &mut o.known_objects,
            |o| &mut o.listed_members,
            |o| &mut o.owner_indexes,
            |o| &mut o.class_instances,
            |o| &mut o.kept_menus,
            |o| &mut o.coded_strings,
        ];
        for field in fields {
            let mut o = Options::all();
            *field(&mut o) = false;
            out.push(o);
        }
        out
    }

    #[test]
    fn the_default_is_every_optimisation() {
        assert_eq!(Options::default(), Options::all());
        assert_eq!(generated(&Options::all()), crate::generate_source("options.tgdl", GAME).unwrap());
    }

    #[test]
    fn every_choice_generates_code() {
        for options in every_choice() {
            let code = generated(&options);
            assert!(syn::parse_file(&code).is_ok(), "{options:?}:\n{code}");
        }
    }

    #[test]
    fn none_is_the_plain_generator() {
        let all = generated(&Options::all());
        let none = generated(&Options::none());
        assert!(all.contains("const KEEPS_MENU: bool = true;"));
        assert!(!none.contains("KEEPS_MENU"));
        assert!(all.contains("let _x: i64"), "{all}");
        assert!(!none.contains("let _x: i64"));
        assert!(all.contains("Option<&'static str>"));
        assert!(!none.contains("Option<&'static str>"));
    }
}
