"""Records of notifications sent and mail replies received."""
