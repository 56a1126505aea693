//! The audit log as a director reads it for an appeal: every change in words (not the raw
//! JSON of the events), with where it happened (tournament, round, table, players), and a
//! search by table, player, round and who; the rows found go to CSV through the core's
//! writer.

use super::PageCtx;
use super::common::{self, LoadErrors, fmt_local_datetime};
use super::director::{Watch, write_export};
use super::files;
use crate::store::TournamentId;
use crate::store::{AuditEntry, AuditFilter, GameMeta};
use egui::{RichText, Ui};
use egui_extras::{Column, TableBuilder};
use ggdesk_core::export::audit::{AuditLine, audit_csv, details_in_words, place_of};
use ggdesk_core::export::print::sort_key;
use std::collections::{BTreeMap, HashMap};

/// One line of the log, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditRow {
    pub at: i64,
    pub who: String,
    pub what: String,
    pub tournament_id: Option<TournamentId>,
    pub tournament: String,
    pub round: Option<u32>,
    pub table: Option<u32>,
    pub game: Option<i64>,
    /// The game's players ("Reyes, Ana - Cruz, Ben"), when the line is about a game.
    pub players: String,
    pub reason: String,
    pub details: String,
}

/// The search: each field given must match (a number for table and round).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuditSearch {
    pub table: String,
    pub round: String,
    pub player: String,
    pub who: String,
    pub text: String,
    /// Only the chosen tournament's lines.
    pub this_tournament: bool,
}

/// Whether `text` mentions `word n` as words ("table 3" in "round 2, table 3: white").
fn mentions(text: &str, word: &str, n: u32) -> bool {
    let lower = text.to_lowercase();
    let needle = format!("{word} {n}");
    lower.match_indices(&needle).any(|(i, _)| {
        let after = lower[i + needle.len()..].chars().next();
        let before = lower[..i].chars().next_back();
        !after.is_some_and(|c| c.is_ascii_digit()) && !before.is_some_and(char::is_alphanumeric)
    })
}

impl AuditSearch {
    pub fn matches(&self, row: &AuditRow) -> bool {
        let number = |s: &str| s.trim().parse::<u32>().ok();
        let folded = |s: &str| sort_key(s.trim());
        if let Some(t) = number(&self.table)
            && row.table != Some(t)
            && !mentions(&row.details, "table", t)
        {
            return false;
        }
        if !self.table.trim().is_empty() && number(&self.table).is_none() {
            return false;
        }
        // The line's own round, exactly: "round 6 (stage 2, round 1)" is round 6, not
        // round 1 (a round's number in the event, as the Rounds page numbers them).
        if let Some(r) = number(&self.round)
            && row.round != Some(r)
        {
            return false;
        }
        if !self.round.trim().is_empty() && number(&self.round).is_none() {
            return false;
        }
        let player = folded(&self.player);
        if !player.is_empty()
            && !sort_key(&row.players).contains(&player)
            && !sort_key(&row.details).contains(&player)
        {
            return false;
        }
        let who = folded(&self.who);
        if !who.is_empty() && !sort_key(&row.who).contains(&who) {
            return false;
        }
        let text = folded(&self.text);
        if !text.is_empty() {
            let all = [
                &row.what,
                &row.details,
                &row.reason,
                &row.players,
                &row.tournament,
                &row.who,
            ];
            if !all.iter().any(|f| sort_key(f).contains(&text)) {
                return false;
            }
        }
        true
    }
}

/// How far back each reading of the log's tail starts, in line numbers: on a server a line
/// may commit after higher-numbered ones (at most as many as there are transactions in
/// flight), so the tail is read again from a little before the last line held.
const TAIL_OVERLAP: i64 = 1000;

/// What the lines shown were found for: the search, the tournament, the lines' version and
/// the tables of a station's desk.
type ShownFor = (AuditSearch, Option<TournamentId>, u64, Option<Vec<u32>>);

/// The audit part of the Settings page.
#[derive(Default)]
pub struct AuditView {
    /// Every line read, by number, in words.
    rows: BTreeMap<i64, AuditRow>,
    /// The lines as read, kept to be put in words again when the names change.
    entries: BTreeMap<i64, AuditEntry>,
    names: Names,
    /// The names could not be read last time: read them again at the next reload.
    names_stale: bool,
    /// Moves whenever `rows` changed.
    version: u64,
    /// The numbers of the lines the search shows, newest first, and what they were found
    /// for: searched again only when the search or the lines change, not every frame.
    shown: Vec<i64>,
    shown_for: Option<ShownFor>,
    watch: Watch,
    pub search: AuditSearch,
    load: LoadErrors,
}

/// What the lines are put in words with: each game's round, table and players, the
/// tournaments' names, and each tournament's players by number.
#[derive(Default)]
struct Names {
    games: HashMap<i64, GameMeta>,
    tournaments: HashMap<TournamentId, String>,
    players: HashMap<(TournamentId, ggdesk_core::tournament::PlayerId), String>,
}

impl Names {
    fn read(cx: &PageCtx<'_>, load: &mut LoadErrors) -> Names {
        let games = load
            .check("the games", cx.store.game_metas(None))
            .unwrap_or_default()
            .into_iter()
            .map(|g| (g.id.0, g))
            .collect();
        let tournaments: HashMap<TournamentId, String> = load
            .check("the tournaments", cx.store.tournament_names())
            .unwrap_or_default()
            .into_iter()
            .map(|(id, n)| (id, super::director::display_name(id, &n)))
            .collect();
        let mut players = HashMap::new();
        for t in tournaments.keys() {
            for (no, name) in load
                .check("the players", cx.store.player_names(*t))
                .unwrap_or_default()
            {
                players.insert((*t, no), name);
            }
        }
        Names {
            games,
            tournaments,
            players,
        }
    }
}

impl AuditView {
    /// Reads the lines written since the last reading (the whole log the first time), and
    /// the names again only when a new line may have changed them: a game not yet known,
    /// or a line about no game (a registration, a pairing, a tournament's settings). A move
    /// at a table reads nothing but its own line.
    fn reload(&mut self, cx: &mut PageCtx<'_>) {
        if !self.watch.stale(cx, *cx.tournament) {
            return;
        }
        let mut load = LoadErrors::default();
        let from = self
            .entries
            .last_key_value()
            .map_or(0, |(id, _)| id - TAIL_OVERLAP);
        let tail = load
            .check("the audit log", cx.store.audit_log(AuditFilter::From(from)))
            .unwrap_or_default();
        let new: Vec<AuditEntry> = tail
            .into_iter()
            .filter(|e| self.entries.get(&e.id) != Some(e))
            .collect();
        let rename = self.names_stale
            || self.entries.is_empty()
            || new.iter().any(|e| match e.game_id {
                Some(g) => !self.names.games.contains_key(&g),
                None => true,
            });
        if rename && (self.names_stale || !new.is_empty()) {
            let names = Names::read(cx, &mut load);
            // Names that could not be read are read again at the next reload.
            self.names_stale = !load.is_empty();
            if !self.names_stale {
                self.names = names;
            }
        }
        if rename || !new.is_empty() {
            self.version += 1;
        }
        let new_ids: Vec<i64> = new.iter().map(|e| e.id).collect();
        for e in new {
            self.entries.insert(e.id, e);
        }
        if rename {
            self.rows = self
                .entries
                .values()
                .map(|e| (e.id, row_of(e.clone(), &self.names)))
                .collect();
        } else {
            for id in new_ids {
                if let Some(e) = self.entries.get(&id) {
                    self.rows.insert(id, row_of(e.clone(), &self.names));
                }
            }
        }
        self.load = load;
    }

    pub fn ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        self.reload(cx);
        // An arbiter station's desk shows the lines about the games at its tables (the
        // database shows it their details only); the director's desk every line.
        let mine: Option<Vec<u32>> = cx.my_tables.map(|t| t.iter().map(|n| n.0).collect());
        ui.horizontal(|ui| {
            ui.heading("Audit log");
            ui.label(
                RichText::new(if mine.is_some() {
                    "Every change made to the games at this station's tables, newest first."
                } else {
                    "Every change a director or arbiter made, newest first."
                })
                .weak(),
            );
        });
        if self.load.banner(ui) {
            return;
        }
        let only = (*cx.tournament).filter(|_| self.search.this_tournament);
        let key = (self.search.clone(), only, self.version, mine.clone());
        if self.shown_for.as_ref() != Some(&key) {
            // Newest first.
            self.shown = self
                .rows
                .iter()
                .rev()
                .filter(|(_, r)| self.search.matches(r))
                .filter(|(_, r)| only.is_none() || r.tournament_id == only)
                .filter(|(_, r)| {
                    mine.as_ref().is_none_or(|tables| {
                        r.game.is_some() && r.table.is_some_and(|n| tables.contains(&n))
                    })
                })
                .map(|(id, _)| *id)
                .collect();
            self.shown_for = Some(key);
        }
        let shown = &self.shown;
        let mut export = false;
        ui.horizontal(|ui| {
            for (label, value, width) in [
                ("Table:", &mut self.search.table, 40.0),
                ("Round:", &mut self.search.round, 40.0),
                ("Player:", &mut self.search.player, 130.0),
                ("Who:", &mut self.search.who, 110.0),
                ("Any text:", &mut self.search.text, 130.0),
            ] {
                common::labelled_text(ui, label, value, width);
            }
            if cx.tournament.is_some() {
                ui.checkbox(&mut self.search.this_tournament, "This tournament only");
            }
            if ui.button("Clear").clicked() {
                self.search = AuditSearch::default();
            }
            let n = shown.len();
            export = ui
                .add_enabled(
                    n > 0,
                    egui::Button::new(format!(
                        "Export {n} line{} as CSV",
                        if n == 1 { "" } else { "s" }
                    )),
                )
                .clicked();
        });
        if export {
            let lines: Vec<AuditLine> = shown
                .iter()
                .filter_map(|id| self.rows.get(id))
                .map(line_of)
                .collect();
            let tournament = only.and_then(|t| self.names.tournaments.get(&t).cloned());
            let name = export_name(&self.search, tournament.as_deref(), cx.now_ms);
            let r = write_export(cx.store, &name, &audit_csv(&lines));
            if let Some(file) = cx.notices.report(r, "") {
                files::written(cx.notices, "Audit log (CSV)", &file);
            }
        }
        table(ui, shown, &self.rows);
    }
}

/// The exported file's name says what was exported: `audit-log-table-3-round-2-...csv`
/// for a search, `audit-log-all-...csv` for the whole log, then the local date and time.
pub fn export_name(search: &AuditSearch, tournament: Option<&str>, now_ms: i64) -> String {
    // Letters with accents as their base letter ("Ñora" as "nora").
    let stem = |text: &str| super::director::file_stem(&sort_key(text));
    let mut parts = Vec::new();
    if let Some(t) = tournament {
        parts.push(stem(t));
    }
    for (word, value) in [
        ("table", &search.table),
        ("round", &search.round),
        ("player", &search.player),
        ("who", &search.who),
        ("text", &search.text),
    ] {
        let v = value.trim();
        if !v.is_empty() {
            parts.push(format!("{word}-{}", stem(v)));
        }
    }
    if parts.is_empty() {
        parts.push("all".to_string());
    }
    let when = fmt_local_datetime(now_ms)
        .replace([' ', ':'], "-")
        .replace("--", "-");
    format!("audit-log-{}-{when}.csv", parts.join("-"))
}

fn row_of(e: AuditEntry, names: &Names) -> AuditRow {
    let game = e.game_id.and_then(|g| names.games.get(&g));
    let players = game
        .and_then(|g| Some((g.tournament_id?, g.players?)))
        .map(|(t, p)| {
            let name = |no: ggdesk_core::tournament::PlayerId| {
                names
                    .players
                    .get(&(t, no))
                    .cloned()
                    .unwrap_or(no.to_string())
            };
            format!("{} - {}", name(p.white), name(p.black))
        })
        .unwrap_or_default();
    // A line about a game is where its game is; a director's line (a result typed on
    // Rounds, a round's change) names its round and table in its details.
    let (round, table) = match game {
        Some(g) => (g.round.map(|r| r.0), g.table_no.map(|t| t.0)),
        None => place_of(&e.details),
    };
    AuditRow {
        at: e.at,
        who: who(e.actor),
        what: e.action.replace('_', " "),
        tournament_id: e.tournament_id,
        tournament: e
            .tournament_id
            .and_then(|t| names.tournaments.get(&t).cloned())
            .unwrap_or_default(),
        round,
        table,
        game: e.game_id,
        players,
        reason: e.reason,
        details: details_in_words(&e.action, &e.details),
    }
}

/// Who made a change, one name for one desk: lines written before the director's changes
/// were all named [`crate::store::DIRECTOR_DESK`] say "director" (the Stations, Ratings and
/// Bracket pages, the command line) where the others say "director's desk".
fn who(actor: String) -> String {
    if actor == crate::store::DIRECTOR_BEFORE {
        crate::store::DIRECTOR_DESK.to_string()
    } else {
        actor
    }
}

fn line_of(r: &AuditRow) -> AuditLine {
    AuditLine {
        at: fmt_local_datetime(r.at),
        who: r.who.clone(),
        what: r.what.clone(),
        tournament: r.tournament.clone(),
        round: r.round,
        table: r.table,
        game: r.game,
        reason: r.reason.clone(),
        details: if r.players.is_empty() {
            r.details.clone()
        } else {
            format!("{} ({})", r.details, r.players)
        },
    }
}

/// The lines numbered `shown`, in that order (only those on screen are looked up).
fn table(ui: &mut Ui, shown: &[i64], rows: &BTreeMap<i64, AuditRow>) {
    ui.style_mut().interaction.selectable_labels = false;
    TableBuilder::new(ui)
        .id_salt("audit-log")
        .striped(true)
        .cell_layout(egui::Layout::left_to_right(egui::Align::Center))
        .column(Column::exact(160.0))
        .column(Column::exact(130.0).clip(true))
        .column(Column::exact(215.0).clip(true))
        .column(Column::exact(150.0).clip(true))
        .column(Column::remainder().at_least(200.0).clip(true))
        .column(Column::exact(170.0).clip(true))
        .header(24.0, |mut h| {
            common::header_cells(
                &mut h,
                &["When", "Who", "What", "Where", "Details", "Reason"],
            );
        })
        .body(|body| {
            body.rows(24.0, shown.len(), |mut row| {
                let Some(r) = rows.get(&shown[row.index()]) else {
                    return;
                };
                row.col(|ui| {
                    ui.label(fmt_local_datetime(r.at));
                });
                row.col(|ui| {
                    ui.label(&r.who);
                });
                row.col(|ui| {
                    ui.label(RichText::new(&r.what).strong());
                });
                row.col(|ui| {
                    let mut place = Vec::new();
                    if let Some(n) = r.round {
                        place.push(format!("round {n}"));
                    }
                    if let Some(t) = r.table {
                        place.push(format!("table {t}"));
                    }
                    if place.is_empty()
                        && let Some(g) = r.game
                    {
                        place.push(format!("game {g}"));
                    }
                    let text = place.join(", ");
                    let resp = ui.add(egui::Label::new(text).truncate());
                    if !r.tournament.is_empty() || !r.players.is_empty() {
                        resp.on_hover_text(format!("{} {}", r.tournament, r.players));
                    }
                });
                row.col(|ui| {
                    let text = match (r.details.is_empty(), r.players.is_empty()) {
                        (_, true) => r.details.clone(),
                        (true, false) => r.players.clone(),
                        (false, false) => format!("{} · {}", r.details, r.players),
                    };
                    ui.add(egui::Label::new(&text).truncate())
                        .on_hover_text(&text);
                });
                row.col(|ui| {
                    ui.add(
                        egui::Label::new(RichText::new(&r.reason).color(common::AMBER)).truncate(),
                    )
                    .on_hover_text(&r.reason);
                });
            });
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(details: &str) -> AuditRow {
        AuditRow {
            at: 0,
            who: "arbiter (table 3)".into(),
            what: "move".into(),
            tournament_id: Some(TournamentId(1)),
            tournament: "Open".into(),
            round: Some(2),
            table: Some(3),
            game: Some(9),
            players: "Ñora, Ana - Cruz, Ben".into(),
            reason: String::new(),
            details: details.into(),
        }
    }

    #[test]
    fn the_exported_file_says_its_filter() {
        let at = 1_800_000_000_000;
        let all = export_name(&AuditSearch::default(), None, at);
        assert!(all.starts_with("audit-log-all-"), "{all}");
        assert!(
            all.ends_with(".csv") && !all.contains(' ') && !all.contains(':'),
            "{all}"
        );
        let search = AuditSearch {
            table: "3".into(),
            player: "Ñora Cruz".into(),
            ..AuditSearch::default()
        };
        let some = export_name(&search, Some("GGF Open"), at);
        assert!(
            some.starts_with("audit-log-ggf-open-table-3-player-nora-cruz-"),
            "{some}"
        );
    }

    #[test]
    fn the_search_finds_by_table_round_player_and_who() {
        let r = row("move a3-a4 at 0:13");
        let s = |f: fn(&mut AuditSearch)| {
            let mut s = AuditSearch::default();
            f(&mut s);
            s.matches(&r)
        };
        assert!(s(|s| s.table = "3".into()));
        assert!(!s(|s| s.table = "4".into()));
        assert!(s(|s| s.round = "2".into()));
        assert!(!s(|s| s.round = "1".into()));
        assert!(s(|s| s.player = "nora".into()));
        assert!(!s(|s| s.player = "villa".into()));
        assert!(s(|s| s.who = "ARBITER".into()));
        assert!(!s(|s| s.who = "director".into()));
        // A director's line names its table in its details.
        let d = AuditRow {
            table: None,
            round: None,
            game: None,
            players: String::new(),
            ..row("round 2, table 13 (Reyes - Cruz): pending -> white")
        };
        let mut s = AuditSearch {
            table: "13".into(),
            ..AuditSearch::default()
        };
        assert!(s.matches(&d));
        s.table = "1".into();
        assert!(!s.matches(&d), "table 1 is not table 13");
    }

    /// Issue 31: round 1 is not round 8, whose line says "(stage 2 (Knockout), round 1)".
    #[test]
    fn the_round_searched_is_the_lines_own() {
        let paired = AuditRow {
            round: Some(8),
            table: None,
            game: None,
            players: String::new(),
            ..row("round 8 (stage 2 (Knockout), round 1): 2 board(s)")
        };
        let round = |r: &str| AuditSearch {
            round: r.into(),
            ..AuditSearch::default()
        };
        assert!(round("8").matches(&paired));
        assert!(!round("1").matches(&paired));
        // A line of no round is found by no round, whatever its words say.
        let other = AuditRow {
            round: None,
            ..row("a note about round 1")
        };
        assert!(!round("1").matches(&other));
    }

    /// Issue 31: the desk has one name; older lines say "director".
    #[test]
    fn the_director_is_named_as_the_desk() {
        assert_eq!(who("director".into()), "director's desk");
        assert_eq!(who("hall-a".into()), "hall-a");
        assert_eq!(
            crate::store::Actor::director().0,
            super::super::DIRECTOR_DESK
        );
    }
}
