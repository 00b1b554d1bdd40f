"""The vehicle library's pure core: design kinds, summaries, the exchange format.

No Qt and no SQLAlchemy: :mod:`carwars_desktop.storage.library` keeps designs in
the database and :mod:`carwars_desktop.gui.workshop` edits them; both read
designs through here, and here through the rules engines.
"""

from carwars_desktop.library.catalog import CatalogEntry, catalog_entries
from carwars_desktop.library.exchange import (
    FORMAT,
    VERSION,
    ExchangedDesign,
    ExchangeError,
    dumps_designs,
    make_exchanged,
    read_designs,
)
from carwars_desktop.library.kinds import (
    VEHICLE,
    DesignDataError,
    DesignKind,
    UnknownKindError,
    all_kinds,
    design_kind,
    kinds_of,
    load_design,
)
from carwars_desktop.library.naming import (
    NAME_MAX,
    InvalidNameError,
    UniqueNames,
    clean_name,
    clean_tags,
    copy_name,
    parse_tags,
    tags_text,
    unique_name,
)
from carwars_desktop.library.summary import (
    DesignSummary,
    class_text,
    cost_text,
    status_text,
    summarize,
    summarize_design,
)

__all__ = [
    "FORMAT",
    "NAME_MAX",
    "VEHICLE",
    "VERSION",
    "CatalogEntry",
    "DesignDataError",
    "DesignKind",
    "DesignSummary",
    "ExchangeError",
    "ExchangedDesign",
    "InvalidNameError",
    "UnknownKindError",
    "all_kinds",
    "catalog_entries",
    "class_text",
    "clean_name",
    "clean_tags",
    "copy_name",
    "cost_text",
    "design_kind",
    "dumps_designs",
    "kinds_of",
    "load_design",
    "make_exchanged",
    "parse_tags",
    "read_designs",
    "status_text",
    "summarize",
    "summarize_design",
    "tags_text",
    "UniqueNames",
    "unique_name",
]
