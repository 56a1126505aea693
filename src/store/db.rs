//! One way to talk to either database engine: SQLite (`rusqlite`, the embedded default) or
//! PostgreSQL (the `postgres` crate, for an event server).
//!
//! Every statement of the store is written once, in the SQL both engines share, with
//! numbered parameters `?1, ?2, ...` (rewritten to `$1, $2, ...` for PostgreSQL). Values
//! cross the boundary as [`Value`]s: integers, reals, text or NULL, which both engines
//! store the same way (the PostgreSQL schema uses BIGINT, DOUBLE PRECISION and TEXT
//! column for column where SQLite has INTEGER, REAL and TEXT). A row read back is decoded
//! with [`Row::get`], whose errors name the column and what it held, and which callers
//! wrap with the table and row ([`StoreError::Damaged`]), so a damaged row is refused,
//! never read as a default.

use super::error::{Result, StoreError};
use postgres::types::{FromSql, IsNull, ToSql, Type, to_sql_checked};
use std::collections::HashMap;
use std::rc::Rc;

/// One value of a parameter or a column.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
}

impl Value {
    fn describe(&self) -> String {
        match self {
            Value::Null => "NULL".into(),
            Value::Int(i) => format!("the integer {i}"),
            Value::Real(r) => format!("the number {r}"),
            Value::Text(t) => {
                let shown: String = t.chars().take(40).collect();
                format!("the text '{shown}'")
            }
        }
    }
}

/// A Rust value as a parameter (by reference, as `rusqlite::params!` takes them).
pub(crate) trait ToValue {
    fn to_value(&self) -> Value;
}

macro_rules! to_value_int {
    ($($t:ty),*) => {$(
        impl ToValue for $t {
            fn to_value(&self) -> Value {
                Value::Int(i64::from(*self))
            }
        }
    )*};
}
to_value_int!(i64, i32, u32, u16, u8, bool);

impl ToValue for usize {
    fn to_value(&self) -> Value {
        // Counts and indices in this program are far below i64::MAX.
        Value::Int(i64::try_from(*self).unwrap_or(i64::MAX))
    }
}

impl ToValue for u64 {
    fn to_value(&self) -> Value {
        Value::Int(i64::try_from(*self).unwrap_or(i64::MAX))
    }
}

impl ToValue for f64 {
    fn to_value(&self) -> Value {
        Value::Real(*self)
    }
}

impl ToValue for str {
    fn to_value(&self) -> Value {
        Value::Text(self.to_string())
    }
}

impl ToValue for String {
    fn to_value(&self) -> Value {
        Value::Text(self.clone())
    }
}

impl ToValue for Value {
    fn to_value(&self) -> Value {
        self.clone()
    }
}

impl<T: ToValue + ?Sized> ToValue for &T {
    fn to_value(&self) -> Value {
        (**self).to_value()
    }
}

impl<T: ToValue> ToValue for Option<T> {
    fn to_value(&self) -> Value {
        self.as_ref().map_or(Value::Null, ToValue::to_value)
    }
}

/// The typed numbers and keys of the core cross as the integers they hold.
macro_rules! typed_value {
    ($($t:ident: $inner:ty),*) => {$(
        impl ToValue for ggdesk_core::tournament::$t {
            fn to_value(&self) -> Value {
                Value::Int(i64::from(self.0))
            }
        }

        impl FromValue for ggdesk_core::tournament::$t {
            const EXPECTED: &'static str = <$inner as FromValue>::EXPECTED;
            fn from_value(v: &Value) -> Option<Self> {
                <$inner>::from_value(v).map(ggdesk_core::tournament::$t)
            }
        }
    )*};
}
typed_value!(
    RoundNo: u32, TableNo: u32, BoardNo: u32, StageNo: u32, PlayerId: u32,
    TournamentId: i64, GameId: i64, RegistryId: i64, PenaltyId: i64
);

/// The parameters of a statement: `args![a, b, c]` (each taken by reference).
macro_rules! args {
    ($($x:expr),* $(,)?) => {
        &[$($crate::store::db::ToValue::to_value(&$x)),*][..]
    };
}
pub(crate) use args;

/// A Rust value read from a column.
pub(crate) trait FromValue: Sized {
    /// What the column must hold, for the error.
    const EXPECTED: &'static str;
    fn from_value(v: &Value) -> Option<Self>;
}

impl FromValue for i64 {
    const EXPECTED: &'static str = "an integer";
    fn from_value(v: &Value) -> Option<i64> {
        match v {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }
}

macro_rules! from_value_int {
    ($($t:ty),*) => {$(
        impl FromValue for $t {
            const EXPECTED: &'static str = concat!("an integer that fits ", stringify!($t));
            fn from_value(v: &Value) -> Option<$t> {
                match v {
                    Value::Int(i) => <$t>::try_from(*i).ok(),
                    _ => None,
                }
            }
        }
    )*};
}
from_value_int!(i32, u32, u16, u8, usize, u64);

impl FromValue for bool {
    const EXPECTED: &'static str = "0 or 1";
    fn from_value(v: &Value) -> Option<bool> {
        match v {
            Value::Int(0) => Some(false),
            Value::Int(1) => Some(true),
            _ => None,
        }
    }
}

impl FromValue for f64 {
    const EXPECTED: &'static str = "a number";
    fn from_value(v: &Value) -> Option<f64> {
        match v {
            Value::Real(r) => Some(*r),
            // SQLite stores a REAL that holds a whole number as written: 30.0 may come back
            // as the integer 30.
            Value::Int(i) => Some(*i as f64),
            _ => None,
        }
    }
}

impl FromValue for String {
    const EXPECTED: &'static str = "text";
    fn from_value(v: &Value) -> Option<String> {
        match v {
            Value::Text(t) => Some(t.clone()),
            _ => None,
        }
    }
}

impl<T: FromValue> FromValue for Option<T> {
    const EXPECTED: &'static str = T::EXPECTED;
    fn from_value(v: &Value) -> Option<Option<T>> {
        match v {
            Value::Null => Some(None),
            other => T::from_value(other).map(Some),
        }
    }
}

/// A column, by position or by name.
pub(crate) trait Column {
    fn position(&self, names: &[String]) -> Option<usize>;
    fn label(&self, names: &[String]) -> String;
}

impl Column for usize {
    fn position(&self, names: &[String]) -> Option<usize> {
        (*self < names.len()).then_some(*self)
    }
    fn label(&self, names: &[String]) -> String {
        names
            .get(*self)
            .cloned()
            .unwrap_or_else(|| format!("#{self}"))
    }
}

impl Column for &str {
    fn position(&self, names: &[String]) -> Option<usize> {
        names.iter().position(|n| n == self)
    }
    fn label(&self, _: &[String]) -> String {
        (*self).to_string()
    }
}

/// One row of a result, decoded column by column.
#[derive(Debug, Clone)]
pub(crate) struct Row {
    names: Rc<[String]>,
    values: Vec<Value>,
}

impl Row {
    /// The value of a column as `T`. A column that holds something else is an error naming
    /// the column and what it held; the caller adds the table and row.
    pub(crate) fn get<T: FromValue>(&self, column: impl Column) -> Result<T> {
        let label = column.label(&self.names);
        let value = column
            .position(&self.names)
            .and_then(|i| self.values.get(i))
            .ok_or_else(|| StoreError::Database(format!("no column {label} in the result")))?;
        T::from_value(value).ok_or_else(|| {
            StoreError::Decode(format!(
                "{label} holds {}, not {}",
                value.describe(),
                T::EXPECTED
            ))
        })
    }

    /// The column as text, parsed by `parse` (an enum's code): an unknown code is an error
    /// naming the column and the code.
    pub(crate) fn code<T>(&self, column: &str, parse: impl FnOnce(&str) -> Option<T>) -> Result<T> {
        let text: String = self.get(column)?;
        parse(&text)
            .ok_or_else(|| StoreError::Decode(format!("{column} holds an unknown code '{text}'")))
    }

    pub(crate) fn values(&self) -> &[Value] {
        &self.values
    }

    pub(crate) fn names(&self) -> &[String] {
        &self.names
    }
}

/// Which engine a connection runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    Sqlite,
    Postgres,
}

/// Prepared statements of one PostgreSQL connection, by their SQL as the store writes it.
pub(crate) type Statements = HashMap<String, postgres::Statement>;

/// A transaction on either engine: every statement of the store runs inside one. It
/// carries the moment it began (Unix ms, from the store's clock): every time it writes.
pub(crate) struct Tx<'a> {
    inner: Inner<'a>,
    now: i64,
}

enum Inner<'a> {
    Sqlite(rusqlite::Transaction<'a>),
    /// Inside a read snapshot the store opened around several reads
    /// ([`super::Store::read_consistent`]): statements run on the connection, whose
    /// transaction the snapshot ends.
    SqliteSnapshot(&'a rusqlite::Connection),
    Postgres(postgres::Transaction<'a>, &'a mut Statements),
    PostgresSnapshot(&'a mut postgres::Client, &'a mut Statements),
}

impl<'a> Tx<'a> {
    pub(crate) fn sqlite(tx: rusqlite::Transaction<'a>, now: i64) -> Tx<'a> {
        Tx {
            inner: Inner::Sqlite(tx),
            now,
        }
    }

    pub(crate) fn postgres(
        tx: postgres::Transaction<'a>,
        statements: &'a mut Statements,
        now: i64,
    ) -> Tx<'a> {
        Tx {
            inner: Inner::Postgres(tx, statements),
            now,
        }
    }

    /// Statements inside a snapshot already open on a SQLite connection.
    pub(crate) fn sqlite_snapshot(conn: &'a rusqlite::Connection, now: i64) -> Tx<'a> {
        Tx {
            inner: Inner::SqliteSnapshot(conn),
            now,
        }
    }

    /// Statements inside a snapshot already open on a PostgreSQL connection.
    pub(crate) fn postgres_snapshot(
        client: &'a mut postgres::Client,
        statements: &'a mut Statements,
        now: i64,
    ) -> Tx<'a> {
        Tx {
            inner: Inner::PostgresSnapshot(client, statements),
            now,
        }
    }

    /// Commits the transaction: once this returns `Ok`, the change is durable. Inside a
    /// snapshot, the snapshot's end decides.
    pub(crate) fn commit(self) -> Result<()> {
        match self.inner {
            Inner::Sqlite(tx) => Ok(tx.commit()?),
            Inner::Postgres(tx, _) => Ok(tx.commit()?),
            Inner::SqliteSnapshot(_) | Inner::PostgresSnapshot(..) => Ok(()),
        }
    }

    /// The moment the transaction began (Unix ms): the time it writes.
    pub(crate) fn now(&self) -> i64 {
        self.now
    }

    pub(crate) fn engine(&self) -> Engine {
        match self.inner {
            Inner::Sqlite(_) | Inner::SqliteSnapshot(_) => Engine::Sqlite,
            Inner::Postgres(..) | Inner::PostgresSnapshot(..) => Engine::Postgres,
        }
    }

    /// Locks rows of `table` matching `condition` until the transaction ends, so that
    /// writers of the same aggregate (a game, a round, a tournament) follow one another. On
    /// PostgreSQL this is `SELECT ... FOR UPDATE` (transactions run READ COMMITTED: each
    /// statement after the lock sees what the writer before committed); SQLite's writing
    /// transactions already hold the whole database, so there it does nothing.
    pub(crate) fn lock(&mut self, table: &str, condition: &str, args: impl Params) -> Result<()> {
        if self.engine() == Engine::Postgres {
            self.query(
                &format!("SELECT 1 FROM {table} WHERE {condition} FOR UPDATE"),
                args,
            )?;
        }
        Ok(())
    }

    /// Runs a statement and returns its rows.
    pub(crate) fn query(&mut self, sql: &str, args: impl Params) -> Result<Vec<Row>> {
        self.query_values(sql, &args.values())
    }

    fn query_values(&mut self, sql: &str, args: &[Value]) -> Result<Vec<Row>> {
        match &mut self.inner {
            Inner::Sqlite(tx) => sqlite_query(tx, sql, args),
            Inner::SqliteSnapshot(conn) => sqlite_query(conn, sql, args),
            Inner::Postgres(tx, stmts) => pg_query(tx, stmts, sql, args),
            Inner::PostgresSnapshot(client, stmts) => pg_query(*client, stmts, sql, args),
        }
    }

    /// Runs a statement that returns no rows; the number of rows it changed.
    pub(crate) fn execute(&mut self, sql: &str, args: impl Params) -> Result<usize> {
        self.execute_values(sql, &args.values())
    }

    fn execute_values(&mut self, sql: &str, args: &[Value]) -> Result<usize> {
        match &mut self.inner {
            Inner::Sqlite(tx) => sqlite_execute(tx, sql, args),
            Inner::SqliteSnapshot(conn) => sqlite_execute(conn, sql, args),
            Inner::Postgres(tx, stmts) => pg_execute(tx, stmts, sql, args),
            Inner::PostgresSnapshot(client, stmts) => pg_execute(*client, stmts, sql, args),
        }
    }

    /// The rows of a statement, each decoded by `f`.
    pub(crate) fn query_map<T>(
        &mut self,
        sql: &str,
        args: impl Params,
        f: impl FnMut(&Row) -> Result<T>,
    ) -> Result<Vec<T>> {
        self.query(sql, args)?.iter().map(f).collect()
    }

    /// The first row of a statement decoded by `f`, if there is one.
    pub(crate) fn query_opt<T>(
        &mut self,
        sql: &str,
        args: impl Params,
        f: impl FnOnce(&Row) -> Result<T>,
    ) -> Result<Option<T>> {
        match self.query(sql, args)?.first() {
            Some(r) => f(r).map(Some),
            None => Ok(None),
        }
    }

    /// The first row of a statement that always returns one (an aggregate, an INSERT ...
    /// RETURNING).
    pub(crate) fn query_one<T>(
        &mut self,
        sql: &str,
        args: impl Params,
        f: impl FnOnce(&Row) -> Result<T>,
    ) -> Result<T> {
        self.query_opt(sql, args, f)?
            .ok_or_else(|| StoreError::Database(format!("no row returned by: {}", first_line(sql))))
    }

    /// Runs several statements without parameters (a migration).
    pub(crate) fn batch(&mut self, sql: &str) -> Result<()> {
        match &mut self.inner {
            Inner::Sqlite(tx) => Ok(tx.execute_batch(sql)?),
            Inner::SqliteSnapshot(conn) => Ok(conn.execute_batch(sql)?),
            Inner::Postgres(tx, _) => Ok(tx.batch_execute(sql)?),
            Inner::PostgresSnapshot(client, _) => Ok(client.batch_execute(sql)?),
        }
    }
}

/// A statement bound to a transaction, with the shape of `rusqlite`'s, so that the store's
/// code reads the same on both engines.
pub(crate) struct Stmt<'t, 'a> {
    tx: &'t mut Tx<'a>,
    sql: String,
}

impl<'a> Tx<'a> {
    /// The statement `sql` (prepared once per connection and kept).
    pub(crate) fn prepare_cached(&mut self, sql: &str) -> Result<Stmt<'_, 'a>> {
        Ok(Stmt {
            tx: self,
            sql: sql.to_string(),
        })
    }

    /// The first row decoded by `f`; [`StoreError::NoRow`] when there is none (see
    /// [`Optional::optional`]).
    pub(crate) fn query_row<T>(
        &mut self,
        sql: &str,
        args: impl Params,
        f: impl FnOnce(&Row) -> Result<T>,
    ) -> Result<T> {
        match self.query(sql, args)?.first() {
            Some(r) => f(r),
            None => Err(StoreError::NoRow),
        }
    }
}

impl Stmt<'_, '_> {
    pub(crate) fn query_map<T>(
        &mut self,
        args: impl Params,
        f: impl FnMut(&Row) -> Result<T>,
    ) -> Result<std::vec::IntoIter<Result<T>>> {
        let rows = self.tx.query(&self.sql, args)?;
        Ok(rows.iter().map(f).collect::<Vec<_>>().into_iter())
    }

    pub(crate) fn execute(&mut self, args: impl Params) -> Result<usize> {
        self.tx.execute(&self.sql, args)
    }
}

/// Turns "no row" into `None`.
pub(crate) trait Optional<T> {
    fn optional(self) -> Result<Option<T>>;
}

impl<T> Optional<T> for Result<T> {
    fn optional(self) -> Result<Option<T>> {
        match self {
            Ok(v) => Ok(Some(v)),
            Err(StoreError::NoRow) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// The parameters of a statement: a slice of values (`args![...]`) or an array.
pub(crate) trait Params {
    fn values(self) -> Vec<Value>;
}

impl Params for &[Value] {
    fn values(self) -> Vec<Value> {
        self.to_vec()
    }
}

impl<T: ToValue, const N: usize> Params for [T; N] {
    fn values(self) -> Vec<Value> {
        self.iter().map(ToValue::to_value).collect()
    }
}

fn first_line(sql: &str) -> &str {
    sql.trim().lines().next().unwrap_or("")
}

fn pg_statement(
    client: &mut impl postgres::GenericClient,
    stmts: &mut Statements,
    sql: &str,
) -> Result<postgres::Statement> {
    if let Some(s) = stmts.get(sql) {
        return Ok(s.clone());
    }
    let stmt = client.prepare(&to_postgres(sql))?;
    stmts.insert(sql.to_string(), stmt.clone());
    Ok(stmt)
}

fn sqlite_query(conn: &rusqlite::Connection, sql: &str, args: &[Value]) -> Result<Vec<Row>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let names: Rc<[String]> = stmt.column_names().iter().map(|n| n.to_string()).collect();
    let mut rows = stmt.query(rusqlite::params_from_iter(args.iter()))?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        let mut values = Vec::with_capacity(names.len());
        for i in 0..names.len() {
            values.push(sqlite_value(r.get_ref(i)?)?);
        }
        out.push(Row {
            names: names.clone(),
            values,
        });
    }
    Ok(out)
}

fn sqlite_execute(conn: &rusqlite::Connection, sql: &str, args: &[Value]) -> Result<usize> {
    Ok(conn
        .prepare_cached(sql)?
        .execute(rusqlite::params_from_iter(args.iter()))?)
}

fn pg_query(
    client: &mut impl postgres::GenericClient,
    stmts: &mut Statements,
    sql: &str,
    args: &[Value],
) -> Result<Vec<Row>> {
    let stmt = pg_statement(client, stmts, sql)?;
    let params: Vec<&(dyn ToSql + Sync)> = args.iter().map(|a| a as &(dyn ToSql + Sync)).collect();
    let rows = client.query(&stmt, &params)?;
    let names: Rc<[String]> = stmt
        .columns()
        .iter()
        .map(|c| c.name().to_string())
        .collect();
    rows.iter()
        .map(|r| {
            let values = (0..names.len())
                .map(|i| r.try_get::<_, Value>(i))
                .collect::<std::result::Result<Vec<_>, _>>()?;
            Ok(Row {
                names: names.clone(),
                values,
            })
        })
        .collect()
}

fn pg_execute(
    client: &mut impl postgres::GenericClient,
    stmts: &mut Statements,
    sql: &str,
    args: &[Value],
) -> Result<usize> {
    let stmt = pg_statement(client, stmts, sql)?;
    let params: Vec<&(dyn ToSql + Sync)> = args.iter().map(|a| a as &(dyn ToSql + Sync)).collect();
    Ok(usize::try_from(client.execute(&stmt, &params)?).unwrap_or(usize::MAX))
}

fn sqlite_value(v: rusqlite::types::ValueRef<'_>) -> Result<Value> {
    use rusqlite::types::ValueRef;
    Ok(match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::Int(i),
        ValueRef::Real(r) => Value::Real(r),
        ValueRef::Text(t) => Value::Text(String::from_utf8(t.to_vec()).map_err(|_| {
            StoreError::Decode("a text column holds bytes that are not UTF-8".into())
        })?),
        ValueRef::Blob(_) => {
            return Err(StoreError::Decode(
                "a column holds a blob where the schema has text or numbers".into(),
            ));
        }
    })
}

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(ToSqlOutput::Borrowed(match self {
            Value::Null => ValueRef::Null,
            Value::Int(i) => ValueRef::Integer(*i),
            Value::Real(r) => ValueRef::Real(*r),
            Value::Text(t) => ValueRef::Text(t.as_bytes()),
        }))
    }
}

type BoxError = Box<dyn std::error::Error + Sync + Send>;

impl ToSql for Value {
    /// A value goes into whatever the statement's parameter is (PostgreSQL infers it from the
    /// column): an integer into any integer or a double, a real into a double.
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut bytes::BytesMut,
    ) -> std::result::Result<IsNull, BoxError> {
        match (self, ty) {
            (Value::Null, _) => Ok(IsNull::Yes),
            (Value::Int(i), &Type::INT8) => i.to_sql(ty, out),
            (Value::Int(i), &Type::INT4) => i32::try_from(*i)?.to_sql(ty, out),
            (Value::Int(i), &Type::INT2) => i16::try_from(*i)?.to_sql(ty, out),
            (Value::Int(i), &Type::FLOAT8) => (*i as f64).to_sql(ty, out),
            (Value::Int(i), &Type::BOOL) => (*i != 0).to_sql(ty, out),
            (Value::Real(r), &Type::FLOAT8) => r.to_sql(ty, out),
            (Value::Text(t), _) if <&str as ToSql>::accepts(ty) => t.as_str().to_sql(ty, out),
            (v, ty) => Err(format!("cannot pass {} as a {ty} parameter", v.describe()).into()),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

impl<'a> FromSql<'a> for Value {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> std::result::Result<Value, BoxError> {
        Ok(match *ty {
            Type::INT8 => Value::Int(i64::from_sql(ty, raw)?),
            Type::INT4 => Value::Int(i64::from(i32::from_sql(ty, raw)?)),
            Type::INT2 => Value::Int(i64::from(i16::from_sql(ty, raw)?)),
            Type::BOOL => Value::Int(i64::from(bool::from_sql(ty, raw)?)),
            Type::FLOAT8 => Value::Real(f64::from_sql(ty, raw)?),
            Type::FLOAT4 => Value::Real(f64::from(f32::from_sql(ty, raw)?)),
            Type::OID => Value::Int(i64::from(u32::from_sql(ty, raw)?)),
            Type::VOID => Value::Null,
            _ if <&str as FromSql>::accepts(ty) => {
                Value::Text(<&str>::from_sql(ty, raw)?.to_string())
            }
            _ => return Err(format!("a column of type {ty} cannot be read").into()),
        })
    }

    fn from_sql_null(_: &Type) -> std::result::Result<Value, BoxError> {
        Ok(Value::Null)
    }

    fn accepts(_: &Type) -> bool {
        true
    }
}

/// The store's SQL for PostgreSQL: `?N` parameters become `$N` (outside quoted text).
pub(crate) fn to_postgres(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match quote {
            Some(q) => {
                out.push(c);
                if c == q {
                    quote = None;
                }
            }
            None => match c {
                '\'' | '"' => {
                    quote = Some(c);
                    out.push(c);
                }
                '?' if chars.peek().is_some_and(char::is_ascii_digit) => out.push('$'),
                _ => out.push(c),
            },
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_renumbered_outside_quotes_only() {
        assert_eq!(
            to_postgres("SELECT a FROM t WHERE b = ?1 AND c = '?2' AND d = \"?3\" OR e = ?12"),
            "SELECT a FROM t WHERE b = $1 AND c = '?2' AND d = \"?3\" OR e = $12"
        );
        assert_eq!(
            to_postgres("SELECT 'it''s ?1', ?2"),
            "SELECT 'it''s ?1', $2"
        );
    }

    #[test]
    fn a_column_that_holds_something_else_is_named_in_the_error() {
        let row = Row {
            names: vec!["id".to_string(), "mode".to_string()].into(),
            values: vec![Value::Int(5), Value::Int(7)],
        };
        assert_eq!(row.get::<i64>("id").ok(), Some(5));
        let err = row.get::<String>("mode").err().map(|e| e.to_string());
        assert_eq!(err.as_deref(), Some("mode holds the integer 7, not text"));
        let err = row.get::<u8>(0).err().map(|e| e.to_string());
        assert!(err.is_none());
        let err = row
            .code("mode", |_| None::<()>)
            .err()
            .map(|e| e.to_string());
        assert_eq!(err.as_deref(), Some("mode holds the integer 7, not text"));
    }

    #[test]
    fn an_unknown_code_is_named() {
        let row = Row {
            names: vec!["state".to_string()].into(),
            values: vec![Value::Text("drafty".into())],
        };
        let err = row
            .code("state", |s| (s == "draft").then_some(()))
            .err()
            .map(|e| e.to_string());
        assert_eq!(err.as_deref(), Some("state holds an unknown code 'drafty'"));
    }
}
