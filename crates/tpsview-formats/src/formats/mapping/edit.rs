//! A mapping as a person corrects it in the viewer, one choice at a time, and which mapping a file
//! of a shape is read through: the one given, else one saved for the same key set, else the
//! proposal. Every edit gives a mapping that [`Mapping::check`]s as far as the choice allows: a
//! quantity taken by a second field leaves the first, a unit the quantity does not take becomes
//! the likely one, a scope drops what its rows cannot hold.

use super::propose::unit_for;
use super::{propose, FieldMap, Mapping, Quantity, Scope, Shape, Unit};

/// Where the mapping a file was read through came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// tpsview proposed it from the fields' names and magnitudes.
    Proposed,
    /// Saved for files with the same key set (the viewer keeps them in the browser).
    Saved,
    /// The person made or gave it (the viewer's panel, `--map`, a link).
    Given,
}

/// What the viewer shows of a file no reader knows: what it holds, the mapping it was read
/// through, and where that came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Offer {
    /// The file's rows and fields.
    pub shape: Shape,
    /// The mapping.
    pub mapping: Mapping,
    /// Its origin.
    pub origin: Origin,
}

impl Offer {
    /// What the viewer's panel shows of it, in words.
    pub fn panel(&self) -> Panel {
        let m = &self.mapping;
        Panel {
            origin: match self.origin {
                Origin::Proposed => "proposed",
                Origin::Saved => "saved",
                Origin::Given => "given",
            }
            .to_owned(),
            rows: self.shape.rows,
            keys: self.shape.keys.len(),
            scope: match m.scope {
                Scope::Request => "request",
                Scope::Level => "level",
            }
            .to_owned(),
            concurrency: m.concurrency,
            quantities: Quantity::ALL
                .iter()
                .filter(|q| q.fits(m.scope))
                .map(|q| (q.id().to_owned(), q.label().to_owned()))
                .collect(),
            fields: self
                .shape
                .fields
                .iter()
                .map(|f| {
                    let q = m.quantity_of(&f.name);
                    PanelField {
                        name: f.name.clone(),
                        samples: f.samples.join(", "),
                        quantity: q.id().to_owned(),
                        unit: m.unit_of(&f.name).id().to_owned(),
                        units: match q {
                            Quantity::Ignore => Vec::new(),
                            q => q.units().iter().map(|u| u.id().to_owned()).collect(),
                        },
                    }
                })
                .collect(),
            mapping: m.to_json(),
        }
    }
}

/// What the viewer's mapping panel shows: plain words, so that the page (which reads no file
/// format) holds no mapping types — the loading worker makes it and posts it as a plain object
/// (the page decodes it without serde, which cost it ~5 KB gzip), and reads each correction
/// ([`edit`]) against the mapping document it carries back.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Panel {
    /// `proposed`, `saved` or `given` ([`Origin`]).
    pub origin: String,
    /// The file's rows.
    pub rows: usize,
    /// Its distinct fields.
    pub keys: usize,
    /// `request` or `level`: what one row is.
    pub scope: String,
    /// The level of the whole file, when set.
    pub concurrency: Option<f64>,
    /// The quantities a row of this scope may hold: (id, words).
    pub quantities: Vec<(String, String)>,
    /// The fields shown, in the file's order.
    pub fields: Vec<PanelField>,
    /// The mapping document (`tpsview-mapping/1`, pretty-printed): what is saved and reused.
    pub mapping: String,
}

/// One field in the panel.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PanelField {
    /// Its name.
    pub name: String,
    /// Up to three sample values, masked where secret.
    pub samples: String,
    /// The quantity id it is read as (`ignore`: not read).
    pub quantity: String,
    /// The unit id it is read in.
    pub unit: String,
    /// The unit ids its quantity takes (none when not read).
    pub units: Vec<String>,
}

/// One correction in the panel: `what` is `quantity` or `unit` (of `field`, `value` an id),
/// `scope` (`request` or `level`) or `concurrency` (a number; empty: none). Anything else, or a
/// value that names nothing, leaves the mapping as it was.
pub fn edit(m: &Mapping, shape: &Shape, what: &str, field: &str, value: &str) -> Mapping {
    match what {
        "quantity" => match Quantity::from_id(value) {
            Some(q) => m.with_quantity(shape, field, q),
            None => m.clone(),
        },
        "unit" => match Unit::from_id(value) {
            Some(u) => m.with_unit(field, u),
            None => m.clone(),
        },
        "scope" => match value {
            "request" => m.with_scope(Scope::Request),
            "level" => m.with_scope(Scope::Level),
            _ => m.clone(),
        },
        "concurrency" => m.with_concurrency(value.trim().parse().ok()),
        _ => m.clone(),
    }
}

/// Mappings kept at most (the newest first).
pub const KEEP: usize = 20;

/// The kept mappings (`list`: their JSON array; anything else keeps none) with `m` first, in
/// place of one made for the same key set, at most [`KEEP`]: the JSON array to keep.
pub fn kept_with(list: &str, m: &Mapping) -> String {
    let mut out = vec![m.clone()];
    out.extend(
        kept(list)
            .into_iter()
            .filter(|x| x.keys != m.keys)
            .take(KEEP - 1),
    );
    serde_json::to_string(&out).unwrap_or_default()
}

/// The mappings of a kept list (a JSON array of mapping documents; anything else keeps none).
pub fn kept(list: &str) -> Vec<Mapping> {
    serde_json::from_str::<Vec<Mapping>>(list)
        .unwrap_or_default()
        .into_iter()
        .filter(|m| m.format == super::ID)
        .take(KEEP)
        .collect()
}

impl Mapping {
    /// What `field` is mapped to (ignored when not listed).
    pub fn quantity_of(&self, field: &str) -> Quantity {
        self.fields
            .iter()
            .find(|f| f.field == field)
            .map_or(Quantity::Ignore, |f| f.quantity)
    }

    /// The unit `field` is read in (none when not listed).
    pub fn unit_of(&self, field: &str) -> Unit {
        self.fields
            .iter()
            .find(|f| f.field == field)
            .map_or(Unit::None, |f| f.unit)
    }

    /// `field` of `shape` mapped to `q`, in the unit its name and magnitude suggest; a field that
    /// held `q` before is ignored now (a quantity has one field). `Ignore` drops the field.
    pub fn with_quantity(&self, shape: &Shape, field: &str, q: Quantity) -> Mapping {
        let mut m = self.clone();
        m.fields
            .retain(|f| f.field != field && (q == Quantity::Ignore || f.quantity != q));
        if q != Quantity::Ignore && q.fits(m.scope) {
            let unit = shape
                .fields
                .iter()
                .find(|f| f.name == field)
                .map_or(q.units()[0], |f| unit_for(f, q));
            m.fields.push(FieldMap {
                field: field.to_owned(),
                quantity: q,
                unit,
            });
        }
        m.origin_keys(shape);
        m
    }

    /// `field` read in `unit`, where its quantity takes it.
    pub fn with_unit(&self, field: &str, unit: Unit) -> Mapping {
        let mut m = self.clone();
        for f in m.fields.iter_mut().filter(|f| f.field == field) {
            if f.quantity.units().contains(&unit) {
                f.unit = unit;
            }
        }
        m
    }

    /// Rows read as `scope`; fields whose quantity such a row cannot hold are dropped.
    pub fn with_scope(&self, scope: Scope) -> Mapping {
        let mut m = self.clone();
        m.scope = scope;
        m.fields.retain(|f| f.quantity.fits(scope));
        m
    }

    /// The level of the whole file (`None`: from a field, else 1).
    pub fn with_concurrency(&self, c: Option<f64>) -> Mapping {
        let mut m = self.clone();
        m.concurrency = c.filter(|c| c.is_finite() && *c >= 1.0);
        m
    }

    /// Made for `shape`'s rows: their place and key set.
    fn origin_keys(&mut self, shape: &Shape) {
        self.records.clone_from(&shape.records);
        self.keys.clone_from(&shape.keys);
    }
}

/// The mapping a file of `shape` is read through: `given`, else the first of `saved` made for the
/// same key set, else [`propose`]'s.
pub fn choose(shape: &Shape, given: Option<&Mapping>, saved: &[Mapping]) -> (Mapping, Origin) {
    if let Some(m) = given {
        return (m.clone(), Origin::Given);
    }
    if let Some(m) = saved.iter().find(|m| m.keys == shape.keys) {
        return (m.clone(), Origin::Saved);
    }
    (propose(shape), Origin::Proposed)
}
