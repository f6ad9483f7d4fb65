module.exports = require('../jest.web.js')(__dirname);
