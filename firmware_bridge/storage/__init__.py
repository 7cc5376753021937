"""Files the table keeps on disk beside its journal, written whole or not at all."""
