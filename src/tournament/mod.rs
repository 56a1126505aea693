//! The tournament model: players, settings, rounds, results, scores, standings and
//! tie-breaks, and the `ggdesk-tournament/1` file. Pure: no IO.
