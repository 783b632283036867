"""The kernel both competitions share: the life of a result (lifecycle), who may do what
(permissions), refusals (errors), the live pages' counters (cache), the audit trail, the deal
shape, archive reading, and the extension points one app uses to add to the other's pages."""
