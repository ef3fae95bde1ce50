"""Discord plumbing: clicks routed, custom_ids read, interactions answered."""
