# Every audit the test suite creates is checked for consistent intervals (#44): with this
# option, fair_audit() runs fp_audit_inconsistencies() on its result and stops on any break
# (an interval without its estimate, a largest loss starting below a group's loss, a gap or
# ratio beyond what the largest and smallest allow, a gap 0 by construction with an interval).
options(fairproj.check_audits = TRUE)
