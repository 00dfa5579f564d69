//! A registry of the embedded recipes, so tools can iterate over every real dataset.

use crate::dataset::Dataset;
use crate::error::Result;
use crate::recipes;

/// Every recipe over the embedded real datasets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Recipe {
    /// [`recipes::adult_tfco`]: Adult, 122 features.
    AdultTfco,
    /// [`recipes::adult_a9a`]: Adult, a9a-like 123 binary features.
    AdultA9a,
    /// [`recipes::adult_fair_projection`]: Adult, White/Black.
    AdultFairProjection,
    /// [`recipes::compas_propublica`]: COMPAS, 6,172 rows.
    CompasPropublica,
    /// [`recipes::compas_fair_projection`]: COMPAS, African-American/Caucasian.
    CompasFairProjection,
    /// [`recipes::compas_tfco`]: COMPAS, TFCO's 31 bucketed features.
    CompasTfco,
    /// [`recipes::german_credit`].
    GermanCredit,
    /// [`recipes::default_credit`].
    DefaultCredit,
    /// [`recipes::law_school`]: bar passage.
    LawSchool,
    /// [`recipes::law_school_zfya_classes`] with 5 classes.
    LawSchoolZfya5,
    /// [`recipes::communities_crime`].
    CommunitiesCrime,
}

impl Recipe {
    /// All recipes.
    pub const ALL: [Recipe; 11] = [
        Recipe::AdultTfco,
        Recipe::AdultA9a,
        Recipe::AdultFairProjection,
        Recipe::CompasPropublica,
        Recipe::CompasFairProjection,
        Recipe::CompasTfco,
        Recipe::GermanCredit,
        Recipe::DefaultCredit,
        Recipe::LawSchool,
        Recipe::LawSchoolZfya5,
        Recipe::CommunitiesCrime,
    ];

    /// One recipe per embedded dataset, the one a baseline audit uses.
    pub const ONE_PER_DATASET: [Recipe; 6] = [
        Recipe::AdultTfco,
        Recipe::CompasPropublica,
        Recipe::GermanCredit,
        Recipe::DefaultCredit,
        Recipe::LawSchool,
        Recipe::CommunitiesCrime,
    ];

    /// Loads and encodes the dataset.
    ///
    /// # Errors
    /// Only if the embedded data is corrupt.
    pub fn load(self) -> Result<Dataset> {
        match self {
            Recipe::AdultTfco => recipes::adult_tfco(),
            Recipe::AdultA9a => recipes::adult_a9a(),
            Recipe::AdultFairProjection => recipes::adult_fair_projection(),
            Recipe::CompasPropublica => recipes::compas_propublica(),
            Recipe::CompasFairProjection => recipes::compas_fair_projection(),
            Recipe::CompasTfco => recipes::compas_tfco(),
            Recipe::GermanCredit => recipes::german_credit(),
            Recipe::DefaultCredit => recipes::default_credit(),
            Recipe::LawSchool => recipes::law_school(),
            Recipe::LawSchoolZfya5 => recipes::law_school_zfya_classes(5),
            Recipe::CommunitiesCrime => recipes::communities_crime(),
        }
    }
}
