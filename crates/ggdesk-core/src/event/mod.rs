//! The event as the desk runs it: every step of a tournament decided here, the store only
//! keeps what is decided.

mod lifecycle;

pub use lifecycle::{
    DraftRound, NextRound, RoundState, Seat, SwapPlan, SwapRefusal, SwapWarning, next_round,
    plan_swap,
};
