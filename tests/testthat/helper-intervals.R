# fair_audit()'s intervals refit every method per replicate: tests that do not check the
# intervals keep the suite fast with the fewest replicates allowed.
options(fairproj.replicates = 20)
