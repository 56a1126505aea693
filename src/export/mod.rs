//! Writers for what leaves the desk as text: CSV (standings, cross-table, pairing lists)
//! with formula-safe quoting. Pure: values in, strings out.
pub mod forms;
