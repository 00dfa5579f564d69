"""OpenML data set 1590 ("adult", version 2): the description and metadata that
scikit-learn's ``fetch_openml(data_id=1590)`` puts in ``DESCR`` and ``details``, as OpenML
publishes them (``https://www.openml.org/api/v1/json/data/1590``, recorded in scikit-learn's
test fixture ``sklearn/datasets/tests/data/openml/id_1590/api-v1-jd-1590.json.gz``)."""

DATA_ID = 1590

DESCRIPTION = (
    '**Author**: Ronny Kohavi and Barry Becker  \n'
    '**Source**: [UCI](https://archive.ics.uci.edu/ml/datasets/Adult) - 1996  \n'
    '**Please cite**: Ron Kohavi, "Scaling Up the Accuracy of Naive-Bayes Classifiers: a '
    'Decision-Tree Hybrid", Proceedings of the Second International Conference on Knowledge '
    'Discovery and Data Mining, 1996  \n'
    '\n'
    'Prediction task is to determine whether a person makes over 50K a year. Extraction was '
    'done by Barry Becker from the 1994 Census database. A set of reasonably clean records '
    'was extracted using the following conditions: ((AAGE>16) && (AGI>100) && (AFNLWGT>1)&& '
    '(HRSWK>0))\n'
    '\n'
    'This is the original version from the UCI repository, with training and test sets '
    'merged.\n'
    '\n'
    '### Variable description\n'
    '\n'
    'Variables are all self-explanatory except __fnlwgt__. This is a proxy for the '
    'demographic background of the people: "People with similar demographic characteristics '
    'should have similar weights". This similarity-statement is not transferable across the '
    '51 different states.\n'
    '\n'
    'Description from the donor of the database: \n'
    '\n'
    'The weights on the CPS files are controlled to independent estimates of the civilian '
    'noninstitutional population of the US.  These are prepared monthly for us by Population '
    'Division here at the Census Bureau. We use 3 sets of controls. These are:\n'
    '1.  A single cell estimate of the population 16+ for each state.\n'
    '2.  Controls for Hispanic Origin by age and sex.\n'
    '3.  Controls by Race, age and sex.\n'
    '\n'
    'We use all three sets of controls in our weighting program and "rake" through them 6 '
    'times so that by the end we come back to all the controls we used. The term estimate '
    'refers to population totals derived from CPS by creating "weighted tallies" of any '
    'specified socio-economic characteristics of the population. People with similar '
    'demographic characteristics should have similar weights. There is one important caveat '
    'to remember about this statement. That is that since the CPS sample is actually a '
    'collection of 51 state samples, each with its own probability of selection, the '
    'statement only applies within state.\n'
    '\n'
    '\n'
    '### Relevant papers  \n'
    '\n'
    'Ronny Kohavi and Barry Becker. Data Mining and Visualization, Silicon Graphics.  \n'
    "e-mail: ronnyk '@' live.com for questions."
)

DETAILS = {'id': '1590',
 'name': 'adult',
 'version': '2',
 'description_version': '1',
 'format': 'ARFF',
 'upload_date': '2015-06-09T16:39:06',
 'licence': 'Public',
 'url': 'https://www.openml.org/data/v1/download/1595261/adult.arff',
 'file_id': '1595261',
 'default_target_attribute': 'class',
 'version_label': '2',
 'tag': ['OpenML-CC18',
         'OpenML100',
         'study_123',
         'study_135',
         'study_14',
         'study_144',
         'study_218',
         'study_241',
         'study_34',
         'study_99'],
 'visibility': 'public',
 'minio_url': 'http://openml1.win.tue.nl/dataset1590/dataset_1590.pq',
 'status': 'active',
 'processing_date': '2018-10-03 21:37:04',
 'md5_checksum': '60f1500865c66fe7667551e82a70dc9c'}
