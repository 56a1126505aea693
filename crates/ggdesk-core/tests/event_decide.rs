//! The event decides every step: each command checked on the event as it stands, answered
//! with the edits to keep and the audit lines, or refused with its typed reason; the event
//! after the edits is the next step's. No store: the record is built here, as a store reads
//! it.

use ggdesk_core::event::{
    AbsenceChange, Absentee, Command, Confirmation, DeskGame, DeskOutcome, Edit, Entrant, Event,
    EventRecord, Format, NextAction, Refusal, Registrant, RoundState, TournamentSetup, Withdrawal,
};
use ggdesk_core::stages::{MatchFormat, Seeding, StageFormat, StageSpec, StepRefusal};
use ggdesk_core::tournament::{
    BoardNo, GameId, GameResult, PenaltyId, Player, PlayerId, RegistryId, RoundNo, Score, StageNo,
    System, TieBreak, TournamentId,
};

const NOW: i64 = 1_800_000_000_000;

fn entrant(id: u32, rating: i64) -> Entrant {
    Entrant {
        player: Player::new(PlayerId(id), format!("P{id}"), rating),
        registry: RegistryId(i64::from(id) + 100),
        entry_round: RoundNo(1),
        banned: false,
    }
}

/// A Swiss of `rounds` rounds with `n` players rated from 2000 down.
fn swiss(n: u32, rounds: u32) -> Event {
    let record = EventRecord {
        setup: TournamentSetup {
            name: "Club night".into(),
            rounds: Some(rounds),
            ..TournamentSetup::default()
        },
        format: Format::OneSystem,
        forbidden: Vec::new(),
        entrants: (1..=n).map(|i| entrant(i, 2000 - i64::from(i))).collect(),
        rounds: Vec::new(),
        absences: Vec::new(),
        penalties: Vec::new(),
        desk: Vec::new(),
    };
    Event::new(TournamentId(1), record).expect("an event")
}

/// The event after a command, which must be allowed.
fn run(event: &Event, command: Command) -> Event {
    let changes = event.decide(&command, NOW).expect("allowed");
    event.after(&changes).expect("still an event")
}

/// The refusal of a command.
fn refused(event: &Event, command: Command) -> Refusal {
    event.decide(&command, NOW).expect_err("refused")
}

/// Every board of round `n` decided: White wins.
fn white_wins_all(event: &Event, n: RoundNo) -> Event {
    let boards: Vec<BoardNo> = event
        .round(n)
        .expect("round")
        .boards
        .iter()
        .map(|b| b.board)
        .collect();
    let mut e = event.clone();
    for board in boards {
        e = run(
            &e,
            Command::SetResult {
                round: n,
                board,
                result: GameResult::WhiteWins,
                reason: String::new(),
            },
        );
    }
    e
}

#[test]
fn pairing_drafts_the_next_round_and_publishing_puts_it_in_play() {
    let event = swiss(4, 3);
    assert_eq!(
        event.next_action(),
        NextAction::Pair {
            number: RoundNo(1),
            stage: StageNo(1),
            round: RoundNo(1)
        }
    );
    let changes = event.decide(&Command::Pair, NOW).expect("paired");
    assert_eq!(changes.paired, Some(RoundNo(1)));
    let Some(Edit::AddRound(round)) = changes.edits.first() else {
        panic!("a new round: {:?}", changes.edits);
    };
    assert_eq!(round.state, RoundState::Draft);
    assert_eq!(round.boards.len(), 2);
    assert_eq!(changes.audit[0].action, "round paired (draft)");
    assert_eq!(changes.audit[0].details, "round 1: 2 board(s), 0 bye(s)");
    let drafted = event.after(&changes).expect("event");
    assert_eq!(drafted.next_action(), NextAction::DraftWaiting(RoundNo(1)));
    assert_eq!(
        refused(&drafted, Command::Pair),
        Refusal::DraftWaiting(RoundNo(1))
    );
    let published = run(&drafted, Command::Publish(RoundNo(1)));
    assert_eq!(
        published.round(RoundNo(1)).expect("round").state,
        RoundState::Published
    );
    assert_eq!(published.next_action(), NextAction::InPlay(RoundNo(1)));
    assert_eq!(
        refused(&published, Command::Pair),
        Refusal::ResultsMissing {
            round: RoundNo(1),
            pending: 2
        }
    );
    assert_eq!(
        refused(&published, Command::Publish(RoundNo(1))),
        Refusal::NotADraft(RoundNo(1))
    );
}

#[test]
fn the_last_result_completes_the_round_and_a_result_set_back_reopens_it() {
    let event = run(
        &run(&swiss(4, 3), Command::Pair),
        Command::Publish(RoundNo(1)),
    );
    let first = Command::SetResult {
        round: RoundNo(1),
        board: BoardNo(1),
        result: GameResult::Draw,
        reason: String::new(),
    };
    let changes = event.decide(&first, NOW).expect("result");
    assert!(changes.completed.is_empty());
    let event = event.after(&changes).expect("event");
    let last = Command::SetResult {
        round: RoundNo(1),
        board: BoardNo(2),
        result: GameResult::BlackWins,
        reason: String::new(),
    };
    let changes = event.decide(&last, NOW).expect("last result");
    assert_eq!(changes.completed, [RoundNo(1)]);
    let actions: Vec<&str> = changes.audit.iter().map(|a| a.action).collect();
    assert_eq!(actions, ["result entered", "round complete"]);
    let complete = event.after(&changes).expect("event");
    assert_eq!(
        complete.round(RoundNo(1)).expect("round").state,
        RoundState::Complete
    );
    // Changing a result needs a reason; set back to pending, it reopens the round.
    let back = Command::SetResult {
        round: RoundNo(1),
        board: BoardNo(2),
        result: GameResult::Pending,
        reason: String::new(),
    };
    assert!(matches!(
        refused(&complete, back),
        Refusal::ChangeNeedsReason {
            old: GameResult::BlackWins,
            ..
        }
    ));
    let back = Command::SetResult {
        round: RoundNo(1),
        board: BoardNo(2),
        result: GameResult::Pending,
        reason: "wrong table".into(),
    };
    let changes = complete.decide(&back, NOW).expect("reopened");
    assert!(changes.edits.contains(&Edit::Reopen(RoundNo(1))));
    let reopened = complete.after(&changes).expect("event");
    assert_eq!(
        reopened.round(RoundNo(1)).expect("round").state,
        RoundState::Published
    );
}

#[test]
fn a_game_at_the_desk_keeps_its_board_and_gives_its_result() {
    let event = run(
        &run(&swiss(4, 3), Command::Pair),
        Command::Publish(RoundNo(1)),
    );
    let mut record = event.record().clone();
    let table = record.rounds[0].boards[0].table;
    record.desk.push(DeskGame {
        id: GameId(7),
        round: RoundNo(1),
        table,
        started: true,
        outcome: DeskOutcome::Undecided,
    });
    let event = Event::new(TournamentId(1), record).expect("event");
    let by_hand = Command::SetResult {
        round: RoundNo(1),
        board: BoardNo(1),
        result: GameResult::Draw,
        reason: String::new(),
    };
    assert_eq!(
        refused(&event, by_hand),
        Refusal::AtTheDesk {
            table,
            game: GameId(7)
        }
    );
    let from_desk = Command::DeskResult {
        game: GameId(7),
        round: RoundNo(1),
        table,
        players: None,
        result: GameResult::WhiteWins,
    };
    let changes = event.decide(&from_desk, NOW).expect("from the desk");
    assert_eq!(changes.audit[0].action, "result from the arbiter desk");
    assert_eq!(changes.audit[0].game, Some(GameId(7)));
    // A default loss is refused before the round has an official start.
    let default = Command::DefaultLoss {
        round: RoundNo(1),
        board: BoardNo(2),
        absent: Absentee::Black,
        now_ms: NOW,
    };
    assert_eq!(
        refused(&event, default.clone()),
        Refusal::NoStart(RoundNo(1))
    );
    let started = run(
        &event,
        Command::SetStart {
            round: RoundNo(1),
            at: Some(NOW),
        },
    );
    // The grace period is 30 minutes by default: one minute in, 29 are left.
    let early = Command::DefaultLoss {
        round: RoundNo(1),
        board: BoardNo(2),
        absent: Absentee::Black,
        now_ms: NOW + 60_000,
    };
    assert_eq!(
        refused(&started, early),
        Refusal::GraceNotOver { minutes: 29 }
    );
    let late = Command::DefaultLoss {
        round: RoundNo(1),
        board: BoardNo(2),
        absent: Absentee::Black,
        now_ms: NOW + 30 * 60_000,
    };
    let after = run(&started, late);
    assert_eq!(
        after.round(RoundNo(1)).expect("round").boards[1].result,
        GameResult::WhiteWinsByForfeit
    );
}

#[test]
fn repairing_the_last_round_voids_its_games_and_drafts_it_again() {
    let event = run(
        &run(&swiss(4, 3), Command::Pair),
        Command::Publish(RoundNo(1)),
    );
    assert_eq!(
        refused(
            &event,
            Command::Repair {
                round: RoundNo(1),
                reason: " ".into()
            }
        ),
        Refusal::NeedsReason(ggdesk_core::event::ReasonFor::Repair)
    );
    let changes = event
        .decide(
            &Command::Repair {
                round: RoundNo(1),
                reason: "wrong players".into(),
            },
            NOW,
        )
        .expect("re-paired");
    assert_eq!(changes.paired, Some(RoundNo(1)));
    assert!(matches!(
        changes.edits[0],
        Edit::VoidGames {
            round: RoundNo(1),
            ..
        }
    ));
    assert_eq!(changes.edits[1], Edit::DeleteRound(RoundNo(1)));
    assert_eq!(
        changes.games_changed.as_ref().map(|g| g.what.as_str()),
        Some("round 1")
    );
    let after = event.after(&changes).expect("event");
    assert_eq!(
        after.round(RoundNo(1)).expect("round").state,
        RoundState::Draft
    );
}

#[test]
fn a_late_entry_is_absent_in_the_rounds_played_before_it() {
    let event = white_wins_all(
        &run(
            &run(&swiss(4, 3), Command::Pair),
            Command::Publish(RoundNo(1)),
        ),
        RoundNo(1),
    );
    let late = Registrant {
        registry: RegistryId(500),
        name: "Late, Dee".into(),
        federation_id: String::new(),
        club: "Club".into(),
        rating: 1400,
        banned: false,
    };
    let changes = event
        .decide(&Command::Register(late.clone()), NOW)
        .expect("registered");
    assert_eq!(changes.registered, [PlayerId(5)]);
    assert_eq!(
        changes.audit[0].details,
        "player 5: Late, Dee (registry 500), late entry from round 2"
    );
    let after = event.after(&changes).expect("event");
    let reg = after
        .registrations()
        .into_iter()
        .find(|r| r.no == PlayerId(5))
        .expect("registered");
    assert_eq!(reg.entry_round, RoundNo(2));
    assert_eq!(reg.absences, [RoundNo(1)]);
    assert_eq!(
        refused(&after, Command::Register(late)),
        Refusal::AlreadyRegistered {
            name: "Late, Dee".into(),
            no: PlayerId(5)
        }
    );
    let banned = Registrant {
        registry: RegistryId(501),
        name: "Banned, Bo".into(),
        federation_id: String::new(),
        club: String::new(),
        rating: 1500,
        banned: true,
    };
    assert_eq!(
        refused(&after, Command::Register(banned)),
        Refusal::BannedCannotRegister("Banned, Bo".into())
    );
}

#[test]
fn withdrawals_absences_penalties_and_forbidden_pairs_are_decided_with_their_words() {
    let event = swiss(4, 3);
    let withdraw = Command::SetWithdrawn {
        player: PlayerId(2),
        change: Withdrawal::Withdraw,
        reason: "ill".into(),
    };
    let after = run(&event, withdraw.clone());
    assert!(after.entrant(PlayerId(2)).expect("p2").player.withdrawn);
    assert_eq!(
        refused(&after, withdraw),
        Refusal::AlreadyWithdrawn("P2".into())
    );
    let absence = Command::SetAbsence {
        player: PlayerId(3),
        round: RoundNo(2),
        change: AbsenceChange::Ask,
        reason: "wedding".into(),
    };
    let after = run(&after, absence);
    assert_eq!(after.absences(RoundNo(2)).count(), 1);
    assert_eq!(
        refused(
            &after,
            Command::AddPenalty {
                player: PlayerId(1),
                points: Score::from_halves(2),
                reason: "  ".into()
            }
        ),
        Refusal::NeedsReason(ggdesk_core::event::ReasonFor::Penalty)
    );
    let changes = after
        .decide(
            &Command::AddPenalty {
                player: PlayerId(1),
                points: Score::from_halves(2),
                reason: "delay".into(),
            },
            NOW,
        )
        .expect("penalty");
    assert_eq!(changes.audit[0].details, "player 1 (P1): -1");
    assert_eq!(
        refused(
            &after,
            Command::RemovePenalty {
                id: PenaltyId(9),
                reason: "mistake".into()
            }
        ),
        Refusal::NoSuchPenalty(PenaltyId(9))
    );
    assert_eq!(
        refused(&after, Command::ForbidPair(PlayerId(4), PlayerId(4))),
        Refusal::ForbidSelf(PlayerId(4))
    );
    let forbidden = run(&after, Command::ForbidPair(PlayerId(4), PlayerId(1)));
    assert_eq!(forbidden.record().forbidden, [(PlayerId(1), PlayerId(4))]);
    assert_eq!(
        refused(&forbidden, Command::AllowPair(PlayerId(2), PlayerId(3))),
        Refusal::NotForbidden(PlayerId(2), PlayerId(3))
    );
}

#[test]
fn a_swap_that_makes_a_rematch_needs_confirming() {
    let event = white_wins_all(
        &run(
            &run(&swiss(4, 3), Command::Pair),
            Command::Publish(RoundNo(1)),
        ),
        RoundNo(1),
    );
    let drafted = run(&event, Command::Pair);
    let round1 = drafted.round(RoundNo(1)).expect("round 1");
    let (w, b) = (round1.boards[0].white, round1.boards[0].black);
    let round2 = drafted.round(RoundNo(2)).expect("round 2");
    // Seat round 1's opponents of board 1 together again: swap w's opponent in round 2
    // with b.
    let opponent = round2
        .boards
        .iter()
        .find_map(|x| {
            if x.white == w {
                Some(x.black)
            } else if x.black == w {
                Some(x.white)
            } else {
                None
            }
        })
        .expect("w is paired");
    let swap = |confirmation| Command::Swap {
        round: RoundNo(2),
        a: opponent,
        b,
        confirmation,
    };
    assert!(matches!(
        refused(&drafted, swap(Confirmation::Unconfirmed)),
        Refusal::NeedsConfirmation(_)
    ));
    let changes = drafted
        .decide(&swap(Confirmation::Confirmed), NOW)
        .expect("confirmed");
    assert_eq!(changes.audit[0].action, "pairing changed by hand");
    assert!(
        changes.audit[0].reason.contains("a rematch"),
        "{:?}",
        changes.audit
    );
}

/// Eight players in two groups of four (top 2 go on), then a knockout of single games.
fn staged() -> Event {
    let stage = |name: &str, format, advance| StageSpec {
        name: name.into(),
        format,
        tiebreaks: vec![TieBreak::DirectEncounter],
        advance,
    };
    let record = EventRecord {
        setup: TournamentSetup {
            name: "Open".into(),
            ..TournamentSetup::default()
        }
        .for_stages(),
        format: Format::Stages(vec![
            stage(
                "Groups",
                StageFormat::RoundRobin {
                    groups: 2,
                    rounds: None,
                },
                Some(2),
            ),
            stage(
                "Final",
                StageFormat::Knockout {
                    series: MatchFormat::BestOf(1),
                    seeding: Seeding::Standard,
                    third_place: false,
                },
                None,
            ),
        ]),
        forbidden: Vec::new(),
        entrants: (1..=8).map(|i| entrant(i, 2000 - i64::from(i))).collect(),
        rounds: Vec::new(),
        absences: Vec::new(),
        penalties: Vec::new(),
        desk: Vec::new(),
    };
    Event::new(TournamentId(2), record).expect("an event of stages")
}

#[test]
fn an_event_of_stages_seeds_its_knockout_and_starts_its_games_at_once() {
    let mut event = staged();
    assert_eq!(
        refused(&event, Command::StartNextGames),
        Refusal::NotForced("stage 1 (Groups)".into())
    );
    assert_eq!(
        refused(
            &event,
            Command::SetAbsence {
                player: PlayerId(1),
                round: RoundNo(1),
                change: AbsenceChange::Ask,
                reason: String::new()
            }
        ),
        Refusal::NoAbsenceInStages
    );
    // Three rounds of the groups, White winning every game: no tie at a cut.
    for n in 1..=3 {
        event = run(&event, Command::Pair);
        event = run(&event, Command::Publish(RoundNo(n)));
        event = white_wins_all(&event, RoundNo(n));
    }
    let NextAction::Seed { stage, start, .. } = event.next_action() else {
        panic!("the knockout is seeded next: {:?}", event.next_action());
    };
    assert_eq!((stage, start), (StageNo(2), true));
    let changes = event
        .decide(&Command::StartNextGames, NOW)
        .expect("started");
    assert_eq!(changes.paired, Some(RoundNo(4)));
    assert_eq!(changes.published, Some(RoundNo(4)));
    let started = event.after(&changes).expect("event");
    let round = started
        .round(RoundNo(4))
        .expect("the knockout's first round");
    assert_eq!(round.state, RoundState::Published);
    assert_eq!(round.boards.len(), 2);
    assert_eq!(
        started.place_words(RoundNo(4)),
        "Stage 2 · Final · Semi-finals"
    );
    // The stages played are fixed; a knockout game cannot be a double forfeit.
    assert_eq!(started.stages_fixed(), 2);
    let double = Command::SetResult {
        round: RoundNo(4),
        board: BoardNo(1),
        result: GameResult::DoubleForfeit,
        reason: String::new(),
    };
    assert!(matches!(
        refused(&started, double),
        Refusal::Inconsistent(_)
    ));
    let mut done = white_wins_all(&started, RoundNo(4));
    done = run(&done, Command::StartNextGames);
    done = white_wins_all(&done, RoundNo(5));
    assert_eq!(done.next_action(), NextAction::Over);
    assert_eq!(
        refused(&done, Command::Pair),
        Refusal::Step(StepRefusal::Over)
    );
    assert_eq!(done.not_ready_to_rate(), None);
}

#[test]
fn settings_change_until_the_rounds_fix_them() {
    let event = run(&swiss(4, 3), Command::Pair);
    let mut setup = event.setup().clone();
    setup.system = System::RoundRobin;
    assert_eq!(
        refused(
            &event,
            Command::UpdateSetup {
                setup: setup.clone(),
                reason: String::new()
            }
        ),
        Refusal::SystemFixed
    );
    let mut fewer = event.setup().clone();
    fewer.rounds = Some(0);
    assert!(matches!(
        refused(
            &event,
            Command::UpdateSetup {
                setup: fewer,
                reason: String::new()
            }
        ),
        Refusal::Settings(_)
    ));
    assert_eq!(
        refused(
            &event,
            Command::SetStages {
                stages: Some(Vec::new()),
                reason: String::new()
            }
        ),
        Refusal::FormatFixed
    );
}

#[test]
fn the_desk_asks_whether_an_absence_may_be_marked_before_offering_it() {
    let event = swiss(4, 3);
    assert_eq!(
        event.may_set_absence(PlayerId(3), RoundNo(1), AbsenceChange::Ask),
        Ok(())
    );
    assert_eq!(
        event.may_set_absence(PlayerId(3), RoundNo(0), AbsenceChange::Ask),
        Err(Refusal::RoundZero)
    );
    let drafted = run(&event, Command::Pair);
    assert_eq!(
        drafted.may_set_absence(PlayerId(3), RoundNo(1), AbsenceChange::Ask),
        Err(Refusal::AbsenceInDraft {
            round: RoundNo(1),
            name: "P3".into()
        })
    );
    let published = run(&drafted, Command::Publish(RoundNo(1)));
    assert_eq!(
        published.may_set_absence(PlayerId(3), RoundNo(1), AbsenceChange::TakeBack),
        Err(Refusal::AbsenceInPublished {
            round: RoundNo(1),
            name: "P3".into()
        })
    );
    assert_eq!(
        published.may_set_absence(PlayerId(3), RoundNo(2), AbsenceChange::Ask),
        Ok(())
    );
}

#[test]
fn commands_decided_together_answer_the_event_they_make() {
    let event = swiss(4, 3);
    let (changes, after) = event
        .decide_all(&[Command::Pair, Command::Publish(RoundNo(1))], NOW)
        .expect("both allowed");
    assert_eq!(
        after.round(RoundNo(1)).expect("round 1").state,
        RoundState::Published
    );
    assert_eq!(
        event.after(&changes).expect("event").record(),
        after.record()
    );
    // One refused: nothing at all.
    assert_eq!(
        event
            .decide_all(&[Command::Pair, Command::Publish(RoundNo(2))], NOW)
            .map(|_| ())
            .expect_err("round 2 is not paired"),
        refused(&run(&event, Command::Pair), Command::Publish(RoundNo(2)))
    );
}
