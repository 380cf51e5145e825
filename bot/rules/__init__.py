"""The pure rules engine: stdlib only, no discord, no database, no clock, no global random."""
