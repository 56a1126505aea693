//! Swiss pairing by one global maximum-weight matching, and round-robin schedules by the
//! FIDE Berger tables. Pure: no IO.
