# The MLP of Kleindessner et al.'s Adult table (and of Lee et al.'s protocol): scikit-learn's
# MLPClassifier(hidden_layer_sizes=(10, 5), random_state=999, max_iter=10000) with its other
# defaults (ReLU, Adam, log-loss, mini-batches of 200, early stopping off), fitted on a
# representation and evaluated on the same rows (training accuracy, the papers' protocol).
#
#   python3 sklearn-mlp.py in.csv out.txt
#
# in.csv: one row per sample, the representation's columns followed by the label (0/1), no
# header. out.txt: the predicted labels, one per line. Called by sklearn_mlp() in
# kleindessner-methods.R; needs numpy and scikit-learn (Debian: python3-sklearn).
import sys
import warnings

import numpy as np
from sklearn.neural_network import MLPClassifier

data = np.loadtxt(sys.argv[1], delimiter=",", ndmin=2)
x, y = data[:, :-1], data[:, -1].astype(int)
net = MLPClassifier(hidden_layer_sizes=(10, 5), random_state=999, max_iter=10000)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    net.fit(x, y)
np.savetxt(sys.argv[2], net.predict(x), fmt="%d")
