"""Imports every faction module so they register."""
